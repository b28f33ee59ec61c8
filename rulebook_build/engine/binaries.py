"""The compiled endgame-table builder (``native/tablebuild.c``) and proof search (``prover.c``).

The pure-Python builder in ``tables/retrograde.py`` needs about 25 µs a slot: minutes for a
4-piece class, days for all of 5 pieces.  The C program makes the same tables, slot for slot (the
tests compare them), in 0.2 to 1 µs a slot, which makes 5-piece tables practical.  It is compiled
on first use with the machine's C compiler (``$CC``, else ``cc`` or ``gcc``) into the cache
folder, under a name that carries a hash of its source, and run as a separate process, one class
pair at a time.
Where no compiler is found the Python builder is used, as before.

Both variants are built this way: the Fries Spel tables carry each side's art. 17 run in their
index as the Python ones do.  The International 6-piece pairs and the two largest Fries Spel
5-piece pairs are built by slices (``tables/retrograde.py`` ``WHOLE_PAIR_SLOTS``).

The proof search ``native/prover.c`` is ``search.py``'s df-pn compiled (some 400,000 to 700,000
nodes a second, against 6,000 to 10,000 in Python), for both rule sets, run as a process per
search, or one process for the searches of a judgement (``ProverSession``).  It is not
trusted: it prints the tree behind its answer, and ``ProofSearch`` walks that tree with the
Python engine before it reports "proved" or "refuted".  Both programs include
``native/draughts.h`` (board, table index, the capture rules of both variants): one rules core.
A session also answers opinions (``ProverSession.opinion``, ``native/opinion.h``): an evaluating
alpha-beta search that scores a position without proving anything, and leaves the proof
searches of the session as they were.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from rulebook_build.cachedir import cache_root
from rulebook_build.errors import RulebookError
from rulebook_build.lifetime import child_options, program_options
from rulebook_build.rules import SQUARE_OF_BIT, DrawClocks, State, Streak, Variant

FOLDER: Final = Path(__file__).resolve().parent / "native"
SOURCE: Final = FOLDER / "tablebuild.c"
PROVER_SOURCE: Final = FOLDER / "prover.c"
PACK_SOURCE: Final = FOLDER / "pack.c"
"""Turns a class's two built tables into the codes of a compact file (``tables/compact.py``)."""
SHARED: Final = FOLDER / "draughts.h"
"""Board, table index and capture rules, included by both programs."""
LIFETIME: Final = FOLDER / "lifetime.h"
"""Included by every program: ``die_with_parent`` (``lifetime.py``)."""
OPINION: Final = FOLDER / "opinion.h"
"""The evaluating search of the proof search's "opinion" request, included by ``prover.c``."""
VARIANTS: Final = frozenset({"international", "frisian"})
"""The variants whose rules the compiled programs play (the table builder and the search)."""

Material = tuple[int, int, int, int]


def source_bytes(source: Path = SOURCE) -> bytes:
    """A program's source with the headers it includes: what its behaviour depends on (the
    fingerprint of a test's own variant reads the builder's, which ``opinion.h`` is no part
    of)."""
    extra = OPINION.read_bytes() if source == PROVER_SOURCE else b""
    return source.read_bytes() + SHARED.read_bytes() + LIFETIME.read_bytes() + extra


FLAGS: Final = ("-O3", "-std=c11", "-D_POSIX_C_SOURCE=200809L")
"""How the programs are compiled.  -O3 rather than -O2: the Frisian 4-piece pair 1m1k v 1m1k
builds in 19.9 s instead of 22.5 s.  No -march=native: a cache folder may be shared by
machines of different processors (see ``machine_flags``)."""


@cache
def machine_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> tuple[str, ...]:
    """``-mpopcnt`` where this machine is an x86-64 whose processor counts bits in one
    instruction (every one since about 2009): without it, each count of a board's pieces is a
    call into the compiler's library, 9 % of the Frisian builder's time under perf.  With it,
    the builder needs 12 % less processor time on two Frisian 4-piece pairs and 4.5 % on two
    International ones, for the same bytes (``benchmarks/machine_flags.py``); the proof search,
    measured on 66 first moves of the problems, is no faster.  Other processors count bits in
    one instruction anyway, or are left as they are.  The flags are part of the program's name,
    so a machine without the instruction that shares the cache folder compiles a program of its
    own instead of running this one; the values the programs compute are the same either way
    (the tables' names, ``store.FINGERPRINTS``, leave the programs out)."""
    import platform  # the compiled programs' alone: not loaded in the browser

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ()
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    return ("-mpopcnt",) if re.search(r"^flags\s*:.*\bpopcnt\b", text, re.MULTILINE) else ()


def machine_cores() -> int:
    """The cores this process may run on (how many compiled programs may run at once)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def compiler() -> str | None:
    """The C compiler to use, or None."""
    wanted = os.environ.get("CC")
    if wanted:
        return shutil.which(wanted)
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    return None


ZLIB_FLAGS: Final = ("-DHAVE_ZLIB",)
ZLIB_LIBRARY: Final = ("-lz",)
"""The proof search reads compact tables (``tables/compact.py``) with zlib: compiled with these
where the machine has zlib's header and library, without (reading the int16 tables only) where
not."""


def executable(folder: Path, source: Path = SOURCE, defines: tuple[str, ...] = ()) -> Path | None:
    """The compiled program (the builder, ``PROVER_SOURCE`` or ``PACK_SOURCE``) in
    ``folder/bin``, copied there from the user's cache when that holds the same program, else
    compiled first if needed; None without a compiler or when compiling fails (Python is then
    used).  The proof search is compiled with zlib where it can be.  ``defines`` (``-DNAME=V``)
    are for measurements only (``benchmarks/opinion.py`` tries other Frisian king values): they
    are part of the program's name, so such a program is never taken for the ordinary one."""
    tried: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for machine in dict.fromkeys((machine_flags(), ())):  # a compiler that refuses them: without
        if source == PROVER_SOURCE:
            tried.append((FLAGS + machine + defines + ZLIB_FLAGS, ZLIB_LIBRARY))
        tried.append((FLAGS + machine + defines, ()))
    for flags, libraries in tried:
        program = _compiled(folder, source, flags, libraries)
        if program is not None:
            return program
    return None


def _compiled(
    folder: Path, source: Path, flags: tuple[str, ...], libraries: tuple[str, ...]
) -> Path | None:
    # the name changes with the source and with the flags, so a program is compiled anew
    # whenever either changes (the tables' names follow neither: ``store.FINGERPRINTS``)
    built_as = hashlib.sha256(
        source_bytes(source) + " ".join(flags + libraries).encode()
    ).hexdigest()[:16]
    target = folder / "bin" / f"{source.stem}-{built_as}"
    if target.is_file() and os.access(target, os.X_OK):
        return target
    if _copied_from_the_users_cache(target):
        return target
    failed = target.with_name(target.name + ".failed")  # compiling it failed once: not again
    cc = compiler()
    if cc is None or failed.exists():
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{source.stem}-")
        os.close(handle)
        done = subprocess.run(
            [cc, *flags, "-o", temporary, str(source), *libraries],
            capture_output=True,
            text=True,
            check=False,
            **child_options(),
        )
        if done.returncode != 0:
            os.unlink(temporary)
            failed.write_text(done.stderr)
            return None
        os.replace(temporary, target)
    except OSError:
        return None
    return target


def _copied_from_the_users_cache(target: Path) -> bool:
    """A table cache of its own (``EndgameTables(cache_dir=...)``, a folder of tables to
    publish) takes the program the user's cache already compiled, under the same name (the
    same source and flags, so the same program), instead of compiling it again."""
    shared = cache_root() / "endgame" / "bin" / target.name
    try:
        if shared.resolve() == target.resolve() or not os.access(shared, os.X_OK):
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-")
        os.close(handle)
        try:
            shutil.copyfile(shared, temporary)
            os.chmod(temporary, 0o755)
            os.replace(temporary, target)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    except OSError:  # not there, or no room: compiled as before
        return False
    return True


MAX_SLICE_JOBS: Final = 64
"""The most processes that share a build by slices: ``tablebuild.c`` keeps its helpers in an
array of this size.  A machine of more cores builds other pairs with them, side by side
(``rulebook tables --jobs``)."""


def build_pair(
    program: Path,
    folder: Path,
    material: Material,
    on_line: Callable[[str], None] | None = None,
    *,
    rules: bool = False,
    frisian: bool = False,
    slices: bool = False,
    jobs: int = 1,
    codes: bool = False,
    results: bool = False,
    marked: bool = False,
) -> None:
    """Run the builder for ``material`` and its partner in ``folder``: it reads the tables of the
    classes the pair leads to from there and writes ``<class>.body`` files (values only).
    ``rules``: the tables with count rules (``EndgameTables(semantics="rules")``).  ``frisian``:
    Fries Spel rules, else International ones.  ``slices``: one configuration of the men at a
    time, the same values in far less memory (an International pair of six pieces needs up to
    27 GB built whole, the largest Fries Spel pair of five 35 GB); not for a class that is its
    own partner.  ``jobs``:
    processes sharing the slices (with ``slices`` only).  ``codes``: the ``.body`` files hold
    one *build code* a slot (``tables/compact.py`` ``build_code``) instead of the int16 value,
    and the classes the pair leads to are read from ``<class>.code`` files of build codes
    where there are some.  ``results`` (a pure build with ``codes``): the ``.body`` files hold
    only the results, two bits a slot (``tables/compact.py`` ``write_results``).
    ``marked`` (a count-rule build with ``codes``): a position that must capture has bit 7 of
    its build code set."""
    if results and (rules or not codes):
        raise ValueError("results only of a pure build with codes")
    if marked and (not rules or not codes):
        raise ValueError("marks only in a count-rule build with codes")
    if not 1 <= jobs <= MAX_SLICE_JOBS or (jobs > 1 and not slices):
        raise ValueError(f"jobs must be 1 to {MAX_SLICE_JOBS}, and more than 1 only with slices")
    command = [str(program), str(folder), *(str(n) for n in material)]
    if rules:
        command.append("rules")
    if frisian:
        command.append("frisian")
    if codes:
        command.append("codes")
    if results:
        command.append("results")
    if marked:
        command.append("marked")
    if slices:
        command += ["slices", str(jobs)]
    with subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, **program_options()
    ) as process:
        assert process.stderr is not None
        last = ""
        for line in process.stderr:
            last = line.strip()
            if on_line is not None:
                on_line(last)
        status = process.wait()
    if status != 0:
        try:
            free = f" ({shutil.disk_usage(folder).free / 1e6:,.1f} MB free in {folder})"
        except OSError:
            free = ""
        raise RulebookError(
            f"the endgame table builder failed on {material}: "
            f"{last or f'exit status {status}'}{free}",
            source=str(folder if "cannot write" in last else SOURCE),
        )


# --------------------------------------------------------------------------- the proof search
PROVER_TABLE_MB: Final = 1024
"""Memory of the compiled search's transposition table (it replaces entries when full); the nodes
it settles are kept apart in half as much again."""

PROVER_MB_PER_SECOND: Final = 16
PROVER_MIN_TABLE_MB: Final = 16
"""A search of ``s`` seconds gets a table of at most ``16 s`` MB (and at least 16): about what
it fills.  The memory of a table is cleared as the search first touches it, which cost a short
search more than its nodes (A5's key: 1.3 s with 1 GB, 0.05 s with 32 MB), and a larger table
does not settle a long search in fewer nodes: six second keys that take 2.7 to 33 million nodes
to refute needed 83.1 million in all with 1024 MB, 76.6 with 256 and 80.1 with 128, and took
146, 112 and 116 s (the clearing, and more misses of the processor's address cache)."""

Pieces = tuple[int, int, int, int]
"""White men, white kings, black men, black kings, as bitboards in the layout of board.py."""

WIN_SCORE: Final = 30000
"""An opinion's score of a position whose side to move has lost (no legal move), from the
winner's side; a known end ``n`` plies from the position scores ``WIN_SCORE - n``."""


def pieces_of(state: State) -> Pieces:
    own_men, own_kings, opp_men, opp_kings, white = state[:5]
    if white:
        return (own_men, own_kings, opp_men, opp_kings)
    return (opp_men, opp_kings, own_men, own_kings)


def _run(streak: Streak, men: int, kings: int) -> tuple[int, int]:
    """A side's run of non-capturing moves with one king (Fries Spel art. 17) as (count, square),
    or (0, 0) where it cannot count: no run, its king captured, or no men left to its side."""
    count, bit = streak
    if not count or not men or not kings >> bit & 1:
        return (0, 0)
    return (count, SQUARE_OF_BIT[bit])


def node_fields(variant: Variant, state: State, clocks: DrawClocks) -> tuple[int, ...]:
    """Who is to move and what the rules count, as the compiled search reads and prints a node
    (its CLOCKS field): two nodes with the same pieces and fields have the same future."""
    white = int(state[4])
    if variant.max_consecutive_king_moves is None:
        return (white, int(clocks.ending or 0), clocks.ending_plies, clocks.king_only_plies)
    own = _run(state[5], state[0], state[1])
    other = _run(state[6], state[2], state[3])
    white_run, black_run = (own, other) if white else (other, own)
    strong = 0 if clocks.strong_side is None else 1 if clocks.strong_side else 2
    return (white, *white_run, *black_run, strong, clocks.strong_moves)


def node_words(variant: Variant, state: State, clocks: DrawClocks) -> list[str]:
    """A node as a request to the compiled search writes it: ``WM WK BM BK CLOCKS``, the
    bitboards in hexadecimal and the ``node_fields`` joined by ``/``."""
    fields = node_fields(variant, state, clocks)
    return [*(f"{bits:x}" for bits in pieces_of(state)), "/".join(map(str, fields))]


@dataclass(frozen=True, slots=True)
class ProverAnswer:
    """What the compiled search said: its verdict and, for a settled root, the tree that shows
    it, as the one move chosen at each node where one suffices (``choice``).  Nothing here is
    trusted: ``search.ProofSearch`` walks the tree with the Python engine before using it."""

    verdict: str  # "proved", "refuted" or "undecided"
    variant: Variant
    nodes: int
    seconds: float
    choices: dict[tuple[int, ...], Pieces]
    problem: str | None = None  # why the answer is unusable (the program failed, tree cut short)
    # undecided: the line the search was working on when it stopped, as the pieces after each
    # move (a hint for the composer, checked move by move before it is shown)
    open_line: tuple[Pieces, ...] = ()
    # settled: the positions of the printed tree, leaves included (the program's count), which
    # is about what the Python walk of the tree checks; 0 when not printed whole
    tree: int = 0

    def choice(self, state: State, clocks: DrawClocks) -> Pieces | None:
        """The pieces after the move chosen at this node, if the tree has one."""
        return self.choices.get((*pieces_of(state), *node_fields(self.variant, state, clocks)))


class NativeProver:
    """Runs ``prover.c`` on one node, as a separate process."""

    def __init__(
        self,
        program: Path,
        pure_dir: Path,
        rules_dir: Path,
        *,
        variant: Variant,
        table_mb: int = PROVER_TABLE_MB,
    ) -> None:
        if variant.name not in VARIANTS:
            raise ValueError(f"the compiled search does not play {variant.name} rules")
        self.variant = variant
        self.program = program
        self.pure_dir = pure_dir
        self.rules_dir = rules_dir
        self.table_mb = table_mb

    def table_mb_for(self, seconds: float) -> int:
        """The table a search of ``seconds`` gets: ``table_mb`` at most, the smallest for no
        time (zero, negative or NaN), the largest for infinity."""
        if not seconds > 0:
            return min(self.table_mb, PROVER_MIN_TABLE_MB)
        enough = min(seconds, self.table_mb / PROVER_MB_PER_SECOND)
        wanted = max(PROVER_MIN_TABLE_MB, math.ceil(enough * PROVER_MB_PER_SECOND))
        return min(self.table_mb, wanted)

    def solve(
        self,
        state: State,
        clocks: DrawClocks,
        *,
        seconds: float,
        node_limit: int,
        table_seconds: float | None = None,
    ) -> ProverAnswer:
        """Search ``(state, clocks)`` for at most ``seconds`` and ``node_limit`` positions,
        with the table a search of ``table_seconds`` (default ``seconds``) gets: a search
        counted in work (``budget.py``) sizes its table by its work, not by its wall limit."""
        table_mb = self.table_mb_for(seconds if table_seconds is None else table_seconds)
        command = [
            str(self.program),
            self.variant.name,
            str(self.pure_dir),
            str(self.rules_dir),
            f"{max(seconds, 0.001):.3f}",
            str(node_limit),
            str(table_mb),
            *self._node(state, clocks),
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, check=False, **program_options()
            )
        except OSError as error:
            why = f"the compiled search did not run: {error}"
            return ProverAnswer("undecided", self.variant, 0, 0.0, {}, why)
        if done.returncode != 0:
            last = done.stderr.strip().splitlines()[-1:]
            failure = last[0] if last else f"exit status {done.returncode}"
            why = f"the compiled search failed: {failure}"
            return ProverAnswer("undecided", self.variant, 0, 0.0, {}, why)
        return _parse_answer(self.variant, done.stdout)

    def session(self, seconds: float) -> ProverSession:
        """One process for many searches (``ProverSession``), its table sized for a search of
        ``seconds``."""
        return ProverSession(self, self.table_mb_for(seconds))

    def opinion(self, state: State, clocks: DrawClocks, *, node_limit: int) -> EngineAnswer:
        """The evaluating search's opinion of ``(state, clocks)`` (``ProverSession.opinion``),
        in a session of its own: the smallest proof table, which an opinion does not use."""
        session = self.session(0.0)
        try:
            return session.opinion(state, clocks, node_limit=node_limit)
        finally:
            session.close()

    def _node(self, state: State, clocks: DrawClocks) -> list[str]:
        return node_words(self.variant, state, clocks)

    def describe(self, state: State, clocks: DrawClocks) -> NodeReport:
        """What the program makes of one node (``prover moves``): its table values, whether a
        count rule ends the game there, and its children; for the tests against Python."""
        command = [str(self.program), "moves", self.variant.name, str(self.pure_dir)]
        command += [str(self.rules_dir), *self._node(state, clocks)]
        done = subprocess.run(
            command, capture_output=True, text=True, check=False, **program_options()
        )
        if done.returncode != 0:
            raise RulebookError(f"the compiled search failed: {done.stderr.strip()}")
        return _parse_report(done.stdout)


def _parse_report(text: str) -> NodeReport:
    """A ``moves`` answer (``NativeProver.describe``, ``ProverSession.describe``)."""
    values: dict[str, int | None] = {}
    draw = False
    estimate = (0, 0)
    children: list[tuple[int, ...]] = []
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("pure", "rules"):
            values[word] = None if rest == "none" else int(rest)
        elif word == "draw":
            draw = rest == "1"
        elif word == "estimate":
            proof, disproof = rest.split()
            estimate = (int(proof), int(disproof))
        elif word == "child":
            fields = rest.split()
            children.append(
                (*(int(x, 16) for x in fields[:4]), *(int(x) for x in fields[4].split("/")))
            )
        elif word == "error":
            raise RulebookError(f"the compiled search failed: {rest}")
    return NodeReport(values["pure"], values["rules"], draw, estimate, sorted(children))


SESSION_FROM_SECONDS: Final = 0.05
"""A search of a judgement goes to its running compiled search from this many seconds on
(``search.py NATIVE_FROM_SECONDS`` is 0.5 for a process started for one search): with nothing
to start, a search of a tenth of a second is worth 120,000 compiled nodes, against 2,500 in
Python.  Cat.B1:181 spent 2.9 of its 20 s of work in Python searches of 0.1 to 0.5 s, and
criterion D stayed undecided; sent to the compiled search they cost 0.01 s and it is settled."""


class ProverSession:
    """``prover.c`` kept running between the searches of one judgement (``prover serve``).

    Its transposition table and its store of settled nodes outlive each search, so a search
    starts from what the earlier ones settled or left open: the keys of criterion A transpose
    into one another, the alternatives of criterion C lie in the tree of the key's proof, and a
    later round goes on where the first one stopped.  Only the searches of one judgement share a
    session, in the order the judgement makes them, so a judgement counted in work gets the same
    answers on every machine.  The answers are checked in Python as a single search's are.  The
    process is started on the first search and ends with ``close`` (or when this process ends).
    """

    def __init__(self, prover: NativeProver, table_mb: int) -> None:
        self.from_seconds = SESSION_FROM_SECONDS
        self.prover = prover
        self.table_mb = table_mb
        self._process: subprocess.Popen[str] | None = None
        self._broken: str | None = None  # why the process can no longer be asked

    def solve(
        self,
        state: State,
        clocks: DrawClocks,
        *,
        seconds: float,
        node_limit: int,
        table_seconds: float | None = None,
    ) -> ProverAnswer:
        """As ``NativeProver.solve``; ``table_seconds`` is ignored: the session's table was
        sized when it was opened."""
        variant = self.prover.variant
        if self._broken is not None:
            return ProverAnswer("undecided", variant, 0, 0.0, {}, self._broken)
        limits = [f"{max(seconds, 0.001):.3f}", str(node_limit)]
        request = " ".join(["solve", *limits, *self.prover._node(state, clocks)])
        try:
            answer = self._exchange(request)
        except OSError as error:
            self._broken = f"the compiled search failed: {error}"
            self.close()
            return ProverAnswer("undecided", variant, 0, 0.0, {}, self._broken)
        return _parse_answer(variant, answer)

    def opinion(self, state: State, clocks: DrawClocks, *, node_limit: int) -> EngineAnswer:
        """What the evaluating search (``native/opinion.h``) makes of ``(state, clocks)`` in
        ``node_limit`` positions: a score, not a proof.  It leaves the session's proof tables
        as they were, so the searches before and after it answer as without it.  A failure is
        an answer with ``problem`` set, never an exception."""
        if self._broken is not None:
            return EngineAnswer(0, 0, 0, (), self._broken)
        request = " ".join(["opinion", str(node_limit), *self.prover._node(state, clocks)])
        try:
            answer = self._exchange(request)
        except OSError as error:
            self._broken = f"the compiled search failed: {error}"
            self.close()
            return EngineAnswer(0, 0, 0, (), self._broken)
        return _parse_opinion(answer)

    def describe(self, state: State, clocks: DrawClocks) -> NodeReport:
        """As ``NativeProver.describe``, asked of this session's process: the tests that
        compare many nodes with the Python engine start one process, not one a node.  It
        leaves the proof tables as they were."""
        request = " ".join(["moves", *self.prover._node(state, clocks)])
        answer = self._asked(request)
        return _parse_report(answer)

    def probe(self, state: State, clocks: DrawClocks) -> tuple[int | None, int | None]:
        """What the program's tables say of a node, pure and with the count rules (None: not
        covered): for the tests that the browser's build works out the positions the site's
        tables leave to it as the native build reads them (``tables/remote.py`` CAPTURES)."""
        request = " ".join(["probe", *self.prover._node(state, clocks)])
        answer = self._asked(request)
        found: dict[str, int | None] = {}
        for line in answer.splitlines():
            kind, _, value = line.partition(" ")
            if kind in ("pure", "rules"):
                found[kind] = None if value == "none" else int(value)
            elif kind == "error":
                raise RulebookError(f"the compiled search refused a probe: {value}")
        return found["pure"], found["rules"]

    def resolve(self, state: State, clocks: DrawClocks) -> int | None:
        """The compact code the native program works out for a position whose side to move
        must capture, from the values of the positions its captures lead to (None: not such a
        position, or one of them not covered); not in the WebAssembly build."""
        request = " ".join(["resolve", *self.prover._node(state, clocks)])
        answer = self._asked(request)
        said = answer.split()
        if len(said) < 2 or said[0] != "code":
            raise RulebookError(f"the compiled search refused a position: {answer.strip()}")
        return None if said[1] == "none" else int(said[1])

    def check_captures(self, material: Material) -> str:
        """The native program's check of a class (not in the WebAssembly build): every
        position whose side to move must capture, its stored values against those worked out
        from its captures, as the browser's build works them out where the site's tables leave
        them out.  The answer's lines: ``captures N differ M uncovered U``, after the first
        difference if there is one."""
        return self._asked(" ".join(["captures", *map(str, material)]))

    def _asked(self, request: str) -> str:
        """``_exchange`` for the tests' requests: a program that cannot answer is an error."""
        try:
            return self._exchange(request)
        except OSError as error:
            raise RulebookError(f"the compiled search failed: {error}") from error

    def _exchange(self, request: str) -> str:
        """Send one request line, return the answer up to its ``end`` line; ``OSError`` when
        the program cannot answer (``engine/wasm.py`` answers without a process)."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(request + "\n")
        process.stdin.flush()
        lines: list[str] = []
        for line in process.stdout:
            lines.append(line)
            if line == "end\n":
                return "".join(lines)
        raise OSError(self._death(process))

    def _start(self) -> subprocess.Popen[str]:
        if self._process is None:
            prover = self.prover
            command = [str(prover.program), "serve", prover.variant.name, str(prover.pure_dir)]
            command += [str(prover.rules_dir), str(self.table_mb)]
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                **program_options(),
            )
        return self._process

    @staticmethod
    def _death(process: subprocess.Popen[str]) -> str:
        """Why the process stopped answering: its last message, else its exit status."""
        status = process.wait()
        assert process.stderr is not None
        last = process.stderr.read().strip().splitlines()[-1:]
        return last[0] if last else f"exit status {status}"

    def close(self) -> None:
        """End the process (its memory is given back at once)."""
        process, self._process = self._process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> ProverSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class NodeReport:
    """``NativeProver.describe``: the stored int16 table values (None: not covered), whether a
    count rule draws the game here, the proof and disproof numbers the search starts the node
    with (a leaf's, else its first estimate), and each child as its pieces and
    ``node_fields``."""

    pure: int | None
    rules: int | None
    draw: bool
    estimate: tuple[int, int]
    children: list[tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class EngineAnswer:
    """The evaluating search's opinion of a position (``ProverSession.opinion``): ``score`` in
    hundredths of a man from White's side (``WIN_SCORE`` less the plies to the end where it
    knows the game is won, its negative where lost, 0 for a known draw), the ``depth`` of its
    last completed iteration, the ``nodes`` it searched, and its principal variation as the
    pieces after each move.  Not a proof, and not checked: an opinion."""

    score: int
    depth: int
    nodes: int
    line: tuple[Pieces, ...]
    problem: str | None = None  # why there is no opinion (a bad request, a broken program)


def _parse_opinion(text: str) -> EngineAnswer:
    """The lines of an "opinion" answer up to ``end``; anything else is an answer with a
    ``problem``."""
    score = depth = nodes = 0
    line: list[Pieces] = []
    for row in text.splitlines():
        word, _, rest = row.partition(" ")
        try:
            if word == "score":
                score = int(rest)
            elif word == "depth":
                depth = int(rest)
            elif word == "nodes":
                nodes = int(rest)
            elif word == "line":
                a, b, c, d = (int(x, 16) for x in rest.split())
                line.append((a, b, c, d))
            elif word == "error":
                return EngineAnswer(0, 0, 0, (), f"the compiled search: {rest}")
            elif word == "end":
                return EngineAnswer(score, depth, nodes, tuple(line))
            else:
                return EngineAnswer(0, 0, 0, (), f"an unexpected line in an opinion: {row!r}")
        except ValueError:
            return EngineAnswer(0, 0, 0, (), f"a malformed line in an opinion: {row!r}")
    return EngineAnswer(score, depth, nodes, tuple(line), "the opinion ended early")


def _parse_answer(variant: Variant, text: str) -> ProverAnswer:
    verdict, nodes, seconds = "undecided", 0, 0.0
    choices: dict[tuple[int, ...], Pieces] = {}
    open_line: list[Pieces] = []
    problem: str | None = "the compiled search's output ended early"
    incomplete = False
    tree = 0
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word == "result":
            verdict = rest
        elif word == "nodes":
            nodes = int(rest)
        elif word == "seconds":
            seconds = float(rest)
        elif word == "choice":
            fields = rest.split()
            clock_fields = [int(x) for x in fields[4].split("/")]
            node = tuple(int(x, 16) for x in fields[:4])
            child = tuple(int(x, 16) for x in fields[5:9])
            choices[(*node, *clock_fields)] = (child[0], child[1], child[2], child[3])
        elif word == "open":
            a, b, c, d = (int(x, 16) for x in rest.split())
            open_line.append((a, b, c, d))
        elif word == "tree" and rest == "incomplete":
            incomplete = True
        elif word == "tree" and rest.isdigit():
            tree = int(rest)
        elif word == "error":
            why = f"the compiled search: {rest}"
            return ProverAnswer("undecided", variant, nodes, seconds, {}, why)
        elif word == "end":
            problem = None
    if incomplete:
        problem = "the compiled search could not print its whole tree in time"
    if verdict not in ("proved", "refuted", "undecided"):
        why = f"unknown verdict {verdict!r}"
        return ProverAnswer("undecided", variant, nodes, seconds, {}, why)
    return ProverAnswer(verdict, variant, nodes, seconds, choices, problem, tuple(open_line), tree)
