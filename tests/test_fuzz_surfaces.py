"""Fuzzing the surfaces a user feeds that the notation tests do not: PDN files as bytes read as a
stream (the conformance files as the corpus), and the command line's arguments.  Whatever comes
in, out comes a located error or a usage message and an exit code, never a traceback."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook_build.cli import main
from rulebook_build.errors import NotationError
from rulebook_build.notation.pdn import PdnGame, decode_pdn, iter_pdn_file, read_pdn
from tests.datafiles import conformance_files

FAST = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
CORPUS = [path.read_bytes() for path in conformance_files("succeed") + conformance_files("fail")]


@st.composite
def file_bytes(draw: st.DrawFn) -> bytes:
    """A slice of a conformance file with bytes flipped, inserted or cut."""
    data = bytearray(draw(st.sampled_from(CORPUS)))
    start = draw(st.integers(0, max(0, len(data) - 1)))
    data = data[start : start + draw(st.integers(0, 3000))]
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(data)))
        piece = draw(
            st.binary(min_size=1, max_size=4)
            | st.sampled_from([b"{", b"}", b"[", b"\r", b"\n", b"2-0", b'"'])
        )
        if draw(st.booleans()):
            data[at:at] = piece
        else:
            data[at : at + len(piece)] = piece
    return bytes(data)


@FAST
@given(file_bytes() | st.binary(max_size=300))
def test_a_damaged_file_read_as_a_stream_never_leaks_and_agrees_where_it_reads(
    data: bytes,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.pdn"
        path.write_bytes(data)
        items = list(iter_pdn_file(path))
    games = [item for item in items if isinstance(item, PdnGame)]
    errors = [item for item in items if isinstance(item, NotationError)]
    assert len(games) + len(errors) == len(items)
    for error in errors:
        assert error.line is not None and error.line >= 1 and "\n" not in error.message
    # where the damage left a file that reads without error, the stream reads the same games;
    # where it did not, each reader resumes after the fault in its own way
    whole_games, whole_errors = read_pdn(decode_pdn(data), source=str(path))
    if not whole_errors:
        assert games == list(whole_games)
        assert errors == []


WORDS = st.sampled_from(
    [
        "moves",
        "perft",
        "pdn",
        "diagram",
        "--json",
        "--variant",
        "frisian",
        "international",
        "--play",
        "32-28 19-23",
        "start",
        "empty",
        "W:W31-50:B1-20",
        "W:W33:B23",
        "--depth",
        "0",
        "1",
        "2",
        "-1",
        "--divide",
        "--moves",
        "--numbers",
        "--highlight",
        "28 23",
        "--arrows",
        "--format",
        "svg",
        "png",
        "gif",
        "--size",
        "--flip",
        "--caption",
        "x",
        "--lang",
        "fy",
        "--",
        "-",
        "B:W18:B12",
        "W:WK46:BK5",
        "51",
        "nonsense",
    ]
)
ARGUMENT = WORDS | st.text(alphabet=st.sampled_from(list("WBK:,.-x0123456789 ")), max_size=12)


@FAST
@given(st.lists(ARGUMENT, min_size=1, max_size=7))
def test_the_command_line_never_leaks_a_traceback(arguments: list[str]) -> None:
    if arguments[0] not in ("moves", "perft", "pdn", "diagram"):
        arguments = ["moves", *arguments]
    if arguments[0] == "perft" and "--depth" not in arguments:
        arguments += ["--depth", "1"]
    with tempfile.TemporaryDirectory() as folder:
        if arguments[0] == "diagram":
            arguments += ["--out", str(Path(folder) / "out.svg")]
        if arguments[0] == "pdn":
            (Path(folder) / "a.pdn").write_text("1. 32-28 *\n", encoding="utf-8")
            arguments = [a if a != "-" else str(Path(folder) / "a.pdn") for a in arguments]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(arguments)
            except SystemExit as stop:  # argparse: a usage message and exit 2
                code = stop.code if isinstance(stop.code, int) else 2
        assert code in (0, 1, 2), (arguments, code)
        assert "Traceback" not in err.getvalue(), (arguments, err.getvalue())
        if code == 2 and arguments[0] == "diagram":
            assert not (Path(folder) / "out.svg").exists()  # no half-written file
