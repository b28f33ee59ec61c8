"""``rulebook diagram``: formats, options, located errors, no half-written files."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from rulebook_build.cli import main


def test_svg_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "start", "--numbers", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    root = ET.fromstring(out)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "White: 20 men on 31–50." in out


def test_svg_after_the_moves_with_last_move(tmp_path: Path) -> None:
    target = tmp_path / "fig.svg"
    code = main(
        [
            "diagram",
            "W:W32:B18,27,28",
            "--moves",
            "32x12",
            "--caption",
            "Afb. 4",
            "--out",
            str(target),
        ]
    )
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert 'data-square="12"' in text and 'data-square="28"' not in text
    assert 'class="rb-last"' in text and "Laatste zet: 32x12." in text
    assert '<text class="rb-caption"' in text


def test_png_and_gif_by_extension(tmp_path: Path) -> None:
    png, gif = tmp_path / "a.png", tmp_path / "b.gif"
    assert main(["diagram", "start", "--out", str(png), "--size", "240"]) == 0
    assert Image.open(png).size == (240, 240)
    assert main(["diagram", "start", "--moves", "32-28 19-23 28x19", "--out", str(gif)]) == 0
    animation = Image.open(gif)
    assert animation.format == "GIF" and getattr(animation, "n_frames", 1) == 5
    assert main(["diagram", "start", "--format", "png", "--out", str(tmp_path / "c.img")]) == 0
    assert Image.open(io.BytesIO((tmp_path / "c.img").read_bytes())).format == "PNG"


def test_illegal_move_is_located_at_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "x.png"
    assert main(["diagram", "start", "--moves", "32-28 19-30", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("--moves:1:7: illegal move 19-30")
    assert "\n    32-28 19-30\n          ^" in err
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_bad_square_and_bad_extension(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "start", "--highlight", "28 51"]) == 2
    assert capsys.readouterr().err.startswith("--highlight:1:4: square 51 does not exist")
    assert main(["diagram", "start", "--out", "x.jpeg"]) == 2
    assert "cannot tell the format from '.jpeg'" in capsys.readouterr().err


def test_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "keep.svg"
    target.write_text("old", encoding="utf-8")
    assert main(["diagram", "W:W99:B1", "--out", str(target)]) == 2
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.svg"]
