"""The webmasters' nginx recipe, as the guide prints it, served by a real nginx.

The configuration is read from ``guides/webmasters.md`` ("A worked example: nginx"), so the
guide is what is tested. Only what the guide tells a webmaster to replace is replaced (the
name stays; the certificate paths, the folder) and the ports: nginx listens on loopback ports
of its own, with a certificate made for 127.0.0.1, inside an ``http`` block like Debian's
(``mime.types``, ``default_type``, ``gzip on``), as one foreground process with its own
prefix, logs and temporary folders. It serves the session's build of the project's site, and
the webmasters' smoke test (``scripts/smoke_test.py``) is run against it, the check page's
sample in Chromium included. nginx is stopped at the end, whatever happened.

nginx and Chromium are Debian's (``scripts/test.sh`` installs both as root); without them the
test skips, and under CI it fails instead.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import CHROMIUM, REPOSITORY, Site

GUIDE = REPOSITORY / "guides" / "webmasters.md"
SMOKE_TEST = REPOSITORY / "scripts" / "smoke_test.py"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"

pytestmark = [pytest.mark.browser]


def guide_configuration() -> str:
    """The first ``nginx`` block of the guide's section "A worked example: nginx"."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## A worked example: nginx") :]
    found = re.search(r"```nginx\n(.*?)```", section, re.DOTALL)
    assert found is not None, "the guide's nginx example is gone"
    return found.group(1)


REPLACED = {
    "listen 80;": "listen 127.0.0.1:{http};",
    "listen [::]:80;": "",
    "listen 443 ssl http2;": "listen 127.0.0.1:{https} ssl http2;",
    "listen [::]:443 ssl http2;": "",
    "ssl_certificate     /etc/letsencrypt/live/dammen.example.org/fullchain.pem;": (
        "ssl_certificate     {folder}/cert.pem;"
    ),
    "ssl_certificate_key /etc/letsencrypt/live/dammen.example.org/privkey.pem;": (
        "ssl_certificate_key {folder}/key.pem;"
    ),
    "root /srv/dammen/site;": "root {site};",
}
"""The guide's lines that a test server changes: the ports (loopback only), the certificate
and the folder. Each must be in the guide exactly once, so a change there shows here."""

HTTP_BLOCK = """\
daemon off;
master_process off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 64; }}
http {{
    # as Debian's /etc/nginx/nginx.conf has it, which the guide's file is read inside
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    gzip on;
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;

{guide}
}}
"""


def configuration(folder: Path, site: Path, http: int, https: int) -> str:
    text = guide_configuration()
    for line, replacement in REPLACED.items():
        assert text.count(line) == 1, f"the guide's nginx example no longer has {line!r}"
        text = text.replace(line, replacement)
    for name, value in (("http", http), ("https", https), ("folder", folder), ("site", site)):
        text = text.replace("{" + name + "}", str(value))
    return HTTP_BLOCK.format(folder=folder, guide=text)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def certificate(folder: Path) -> Path:
    """A certificate for 127.0.0.1, valid for a day, and its key."""
    subprocess.run(
        [
            OPENSSL,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            str(folder / "key.pem"),
            "-out",
            str(folder / "cert.pem"),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return folder / "cert.pem"


@dataclass(frozen=True)
class Nginx:
    https: str
    http: str
    certificate: Path
    folder: Path


def missing() -> str | None:
    for path, package in ((NGINX, "nginx"), (OPENSSL, "openssl"), (str(CHROMIUM), "chromium")):
        if not Path(path).exists():
            return f"{path} is missing (apt-get install {package})"
    return None


@pytest.fixture(scope="module")
def nginx(real_site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    why = missing()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI: {why}; scripts/test.sh installs it as root")
        pytest.skip(why)
    assert real_site.result.returncode == 0, real_site.result.stderr
    folder = tmp_path_factory.mktemp("nginx")
    cert = certificate(folder)
    http, https = free_port(), free_port()
    conf = folder / "nginx.conf"
    conf.write_text(configuration(folder, real_site.site, http, https), encoding="utf-8")
    command = [NGINX, "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")]
    tested = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60)
    assert tested.returncode == 0, tested.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", https), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    errors = process.stderr.read().decode() if process.stderr else ""
                    log = (folder / "error.log").read_text(errors="replace")
                    pytest.fail(f"nginx did not start: {errors}{log}")
                time.sleep(0.1)
        yield Nginx(f"https://127.0.0.1:{https}/", f"http://127.0.0.1:{http}/", cert, folder)
    finally:
        process.send_signal(signal.SIGQUIT)  # a graceful stop; then a hard one if need be
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
        if process.stderr is not None:
            process.stderr.close()


def test_the_guides_nginx_passes_the_smoke_test(nginx: Nginx) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SMOKE_TEST),
            nginx.https,
            "--cafile",
            str(nginx.certificate),
            "--chromium",
            str(CHROMIUM),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    log = (nginx.folder / "error.log").read_text(errors="replace")
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\nnginx's error log:\n{log}"
    lines = done.stdout.splitlines()
    # every kind of check ran, the browser's too: none was left out for want of a part
    for check in (
        "page /en/controleren/",
        "a missing address gets the 404 page",
        "security headers on /",
        "pyodide.mjs is a JavaScript type",
        "pyodide.asm.wasm is application/wasm",
        "a byte range of",
        "says Vary: Accept-Encoding",
        "the check page judges the sample in Chromium",
    ):
        assert any(line.startswith("ok") and check in line for line in lines), (check, lines)
    assert not any(line.startswith("FAIL") for line in lines)


def test_plain_http_is_sent_to_https(nginx: Nginx) -> None:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect())
    with pytest.raises(urllib.error.HTTPError) as answer:
        opener.open(nginx.http + "regels/", timeout=30)
    assert answer.value.code == 301
    assert answer.value.headers["Location"] == "https://127.0.0.1/regels/"
