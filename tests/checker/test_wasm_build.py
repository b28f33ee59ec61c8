"""The WebAssembly build of the search: made with Zig when it is there, and its absence is no
failure (the site builds, the page says it runs the Python search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.checkpage import render_checker
from rulebook_build.engine import wasm
from rulebook_build.site.problems import LABELS


def test_without_zig_there_is_no_module_and_the_page_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wasm, "zig", lambda: None)
    assert wasm.wasm_build(tmp_path) is None
    tables = {"international": {"digest": "0" * 64, "pieces": 4}}
    html = render_checker(
        lang="en",
        root="../",
        available=True,
        address="",
        home="../",
        grades=LABELS["en"],
        tables=tables,
    )
    assert "built without the compiled search" in html and "up to 4 pieces" in html
    compiled = render_checker(
        lang="nl",
        root="../",
        available=True,
        address="",
        home="../nl/",
        grades=LABELS["nl"],
        tables=tables,
        compiled=True,
    )
    assert "hetzelfde zoekprogramma" in compiled


def test_a_source_the_compiler_refuses_is_a_located_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if wasm.zig() is None:
        pytest.fail("Zig is missing: pip install -e '.[wasm]' (scripts/test.sh does)")
    broken = tmp_path / "prover.c"
    broken.write_text("int main(void) { return syntax error; }\n", encoding="utf-8")
    monkeypatch.setattr(wasm.binaries, "PROVER_SOURCE", broken)
    # without the C library: Zig builds it first for each place it is installed (half a minute
    # and more), and a source it refuses needs none
    monkeypatch.setattr(wasm, "WASM_FLAGS", (*wasm.WASM_FLAGS, "-nostdlib"))
    with pytest.raises(wasm.WasmBuildError) as raised:
        wasm.wasm_build(tmp_path)
    assert str(raised.value).startswith(f"{broken}: zig cc could not compile")
    assert not list((tmp_path / "bin").glob("*.wasm"))  # nothing half-written
