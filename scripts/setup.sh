# Shared by scripts/site.sh (README command 1) and scripts/test.sh (README command 2), sourced
# from the project's folder: the virtual environment, Pyodide, and what only Debian's packages
# can bring (installed with apt when running as root, else named).

can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
apt_updated=
apt_install() {
    if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# setup_environment EXTRAS: .venv with the package in editable mode and the given extras, and
# Pyodide from npm (pinned in package-lock.json)
setup_environment() {
    python3 -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[$1]"
    npm ci --silent --no-audit --no-fund
}

# WeasyPrint (the pdf extra) prints the rulebooks' PDFs with the system's Pango and fonts,
# which pip cannot install
# (HarfBuzz's subsetter too: without it WeasyPrint falls back to fontTools, warns on every page,
# and the site build, strict, stops on the warnings)
pdf_ready() {
    .venv/bin/python -c "from rulebook_build.site.pdf import unavailable; raise SystemExit(unavailable())" &&
        [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] &&
        .venv/bin/python -c "import ctypes.util; raise SystemExit(not ctypes.util.find_library('harfbuzz-subset'))"
}
setup_pdf() {
    if ! pdf_ready >/dev/null 2>&1; then
        if can_apt; then
            echo "installing Pango and the DejaVu fonts for the rulebooks' PDFs"
            apt_install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
        else
            echo "note: Pango or the DejaVu fonts missing and not root: no PDFs of the rulebooks"
        fi
    fi
}
