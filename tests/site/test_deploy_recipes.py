"""The webmasters' recipes agree with each other and with SECURITY.md: one policy, whichever
host sends it. (The nginx recipe itself runs in ``test_nginx.py``.)"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from .conftest import REPOSITORY

GUIDE = REPOSITORY / "guides" / "webmasters.md"
HEADERS = REPOSITORY / "deploy" / "netlify" / "_headers"


def section(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def security_policy() -> str:
    text = (REPOSITORY / "SECURITY.md").read_text(encoding="utf-8")
    found = re.search(r"^Content-Security-Policy: (.+)$", text, re.MULTILINE)
    assert found is not None
    return found.group(1)


def test_the_netlify_headers_file_is_the_guides() -> None:
    shown = re.search(r"```text\n(.*?)```", section("Netlify"), re.DOTALL)
    assert shown is not None
    assert HEADERS.read_text(encoding="utf-8") == shown.group(1)


def test_every_recipe_sends_the_policy_of_security_md() -> None:
    policy = security_policy()
    assert "'wasm-unsafe-eval'" in policy and "frame-ancestors 'none'" in policy
    netlify = re.search(r"^  Content-Security-Policy: (.+)$", HEADERS.read_text("utf-8"), re.M)
    assert netlify is not None and netlify.group(1) == policy
    nginx = re.search(
        r'add_header Content-Security-Policy "([^"]+)"', section("A worked example: nginx")
    )
    assert nginx is not None and nginx.group(1) == policy


def test_the_nginx_recipe_marks_compressed_answers_and_keeps_pyodide_a_year() -> None:
    recipe = section("A worked example: nginx")
    assert "gzip_vary on;" in recipe
    assert re.search(
        r'"~/assets/pyodide/\[\^/\]\+/"\s+"public, max-age=31536000, immutable"', recipe
    )


def test_the_smoke_test_refuses_what_is_not_an_address() -> None:
    for argument in ("dammen.example.org", "ftp://dammen.example.org/"):
        done = subprocess.run(
            [sys.executable, str(REPOSITORY / "scripts" / "smoke_test.py"), argument],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done
        assert "not a web address" in done.stderr and "Traceback" not in done.stderr


def shell_blocks(title: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", section(title), re.DOTALL)


def test_a_release_is_switched_in_and_rolled_back_as_the_guide_says(tmp_path: Path) -> None:
    """The guide's two blocks, with its paths replaced: a stand-in for ``rulebook build``
    that writes a page naming its release, and for the smoke test, which passes."""
    project = tmp_path / "project"
    (project / ".venv" / "bin").mkdir(parents=True)
    (project / "scripts").mkdir()
    build = project / ".venv" / "bin" / "rulebook"
    build.write_text(
        '#!/bin/sh\nwhile [ "$1" != --out ]; do shift; done\n'
        'mkdir -p "$2" && echo "$2" > "$2/index.html"\n',
        encoding="utf-8",
    )
    build.chmod(0o755)
    (project / "scripts" / "smoke_test.py").write_text("", encoding="utf-8")
    served = tmp_path / "srv"
    served.mkdir()
    update, rollback = shell_blocks("Updating a live site, and rolling back")[:2]

    def run(block: str) -> str:
        block = block.replace("/srv/dammen", str(served)).replace("/path/to/project", str(project))
        subprocess.run(["bash", "-euo", "pipefail", "-c", block], check=True, timeout=60)
        return (served / "site" / "index.html").read_text(encoding="utf-8").strip()

    releases = []
    for second in range(3):  # three releases, a second apart: their names differ
        releases.append(run(update))
        assert releases[-1].startswith("releases/") and (served / "site").is_symlink()
        if second < 2:
            time.sleep(1.1)
    assert len(set(releases)) == 3
    assert run(rollback) == releases[1]
    assert run(rollback) == releases[0]
    assert run(rollback) == releases[0]  # nothing older: the oldest stays
