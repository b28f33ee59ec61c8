"""``rulebook build`` makes the rulebooks' PDFs by default where WeasyPrint can print, and says in
one line when it cannot (the site is built all the same); ``--pdf`` requires them, ``--no-pdf``
leaves them out.  The site build itself is replaced by a recorder: the PDFs' own tests are in
``tests/site/test_pdf.py``."""

from __future__ import annotations

import io
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from rulebook_build.cli import main
from rulebook_build.site import builder, pdf
from rulebook_build.site.builder import BuildReport

MISSING = "PDFs need WeasyPrint, which is not installed: pip install -e '.[pdf]'"


def build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str, missing: str | None
) -> tuple[int, list[bool], str]:
    """Run ``rulebook build`` with WeasyPrint there or not; the exit code, the ``pdf`` argument
    of each site build, and what was said on standard error."""
    asked: list[bool] = []

    def build_site(config: Path, out: Path | None, *, verbose: bool, pdf: bool) -> BuildReport:
        asked.append(pdf)
        return BuildReport(site_dir=tmp_path / "site", pages=1, seconds=0.0, warnings=0)

    monkeypatch.setattr(builder, "build_site", build_site)
    monkeypatch.setattr(pdf, "unavailable", lambda: missing)
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\n", encoding="utf-8")
    said = io.StringIO()
    with redirect_stderr(said):
        code = main(["build", "--config", str(config), *options])
    return code, asked, said.getvalue()


def test_pdfs_by_default_where_they_can_be_made(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, asked, said = build(monkeypatch, tmp_path, missing=None)
    assert (code, asked) == (0, [True])
    assert "PDF" not in said


def test_without_weasyprint_the_site_is_built_and_one_line_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, asked, said = build(monkeypatch, tmp_path, missing=MISSING)
    assert (code, asked) == (0, [False])
    notes = [line for line in said.splitlines() if "PDF" in line]
    assert len(notes) == 1
    assert "without the rulebooks' PDFs" in notes[0] and "pip install -e '.[pdf]'" in notes[0]


def test_pdf_requires_them_and_no_pdf_leaves_them_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, asked, said = build(monkeypatch, tmp_path, "--pdf", missing=MISSING)
    assert (code, asked) == (2, [])
    assert "--pdf: PDFs need WeasyPrint" in said
    code, asked, said = build(monkeypatch, tmp_path, "--no-pdf", missing=None)
    assert (code, asked) == (0, [False])
    assert "PDF" not in said


def test_pdf_and_no_pdf_together_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as stop:
        build(monkeypatch, tmp_path, "--pdf", "--no-pdf", missing=None)
    assert stop.value.code == 2
