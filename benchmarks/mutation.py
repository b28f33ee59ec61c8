"""Mutation testing of the code a verdict or a page's safety rests on (issue 43).

    python benchmarks/mutation.py [MODULE ...] [--max-children N] [--keep DIR [--resume]] [--show]
    python benchmarks/mutation.py --hand [NAME ...]
    python benchmarks/mutation.py --list

A mutant is a small defect put into the code on purpose; a test suite that passes with it in
place does not guard what that line does.  Two kinds are run:

* **mutmut's** (pinned in the ``test`` extra), module by module: ``MODULES`` names each module
  (a path under ``rulebook_build/``, a glob for a folder) with the tests that guard it, and
  optionally which of its functions to mutate.  Each module runs in a folder of its own (a
  temporary one, or under ``--keep``): the project's files are linked there and its
  ``pyproject.toml`` is copied with ``[tool.mutmut]`` narrowed to that module and those tests
  (``only_mutate`` and ``pytest_add_cli_args_test_selection``, mutmut 3's replacement of the
  old ``--runner``), and mutmut makes its ``mutants/`` copy there, never in the work tree.  Of
  the selected tests, mutmut runs for each mutant only those that called the mutated function.
  Printed per module: killed, survived, without tests, timeouts, and the score; ``--show``
  adds the diff of every survivor, to judge it (equivalent, or a test is missing).
* **hand mutants** (``--hand``): one-line defects mutmut cannot make (mutmut 3 mutates code
  inside functions only: not the Jinja environment made at import, not the templates) and the
  five an audit found, each applied to a copy of the project and run against its tests.  Each
  must make a test fail; one whose line is no longer in the file is reported as stale.

Too slow for every CI run (``drawrules.py`` alone runs for minutes): run it before a release and
whenever one of these modules changes, and keep the figures in
``benchmarks/results/mutation.txt`` with a reason for every survivor judged equivalent.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
PACKAGE = "rulebook_build"
LINKED = (
    PACKAGE,
    "grammar",
    "tests",
    "problems",
    "docs",
    "editions",
    "diagrams",
    "scripts",
    "mkdocs.yml",
    "package.json",
)
"""What a module's folder links from the work tree (mutmut copies what it needs of them)."""


@dataclass(frozen=True)
class Module:
    path: str
    """Under ``rulebook_build/``: a file, or a glob such as ``checker/criteria/*.py``."""
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()
    """Only these functions (``name`` or ``Class.name``); all of the module's when empty."""

    @property
    def key(self) -> str:
        return self.path

    def mutant_patterns(self) -> list[str]:
        """mutmut's names of the mutants to run (``pkg.mod.x_func__mutmut_3``, methods as
        ``pkg.mod.xǁClassǁname__mutmut_3``)."""
        dotted = f"{PACKAGE}.{self.path.removesuffix('.py').replace('/', '.')}"
        if not self.functions:
            return [f"{dotted}.*"]
        patterns = []
        for function in self.functions:
            cls, _, name = function.rpartition(".")
            mangled = f"xǁ{cls}ǁ{name}" if cls else f"x_{name}"
            patterns.append(f"{dotted}.{mangled}__mutmut_*")
        return patterns


MODULES: tuple[Module, ...] = (
    Module(
        "engine/search.py",
        (
            "tests/checker/test_proof_walk.py",
            "tests/checker/test_native_prover.py",
            "tests/checker/test_search_sums.py",
            "tests/checker/test_first_estimate.py",
            "tests/checker/test_counted_leaf.py",
            "tests/rules/test_art18_budget.py",
        ),
        (
            "ProofSearch._adopt",
            "ProofSearch._prove_native",
            "ProofSearch._step_to",
            "ProofSearch._leaf_value",
            "ProofSearch._table_value",
            "ProofSearch._counted_win",
            "ProofSearch.prove",
            "_white_wins",
        ),
    ),
    Module(
        "checker/analysis.py",
        ("tests/checker/test_end_of_problem.py", "tests/checker/test_duals.py"),
    ),
    # the criteria one file at a time (each runs for minutes; a glob would run them all)
    Module("checker/criteria/start.py", ("tests/checker/test_criteria.py",)),
    Module("checker/criteria/final.py", ("tests/checker/test_criteria.py",)),
    Module("checker/criteria/second.py", ("tests/checker/test_criteria.py",)),
    Module(
        "checker/criteria/idle.py",
        ("tests/checker/test_criteria.py", "tests/checker/test_duals.py"),
    ),
    Module("checker/criteria/questions.py", ("tests/checker/test_opinion.py",)),
    Module("checker/grade.py", ("tests/checker/test_grade.py",)),
    Module(
        "checker/legality.py",
        ("tests/checker/test_criteria.py", "tests/checker/test_legality.py"),
    ),
    Module(
        "engine/tables/endgame.py",
        (
            "tests/checker/test_endgame.py",
            "tests/checker/test_counted_tables.py",
            "tests/checker/test_table_probes.py",
            "tests/checker/test_compact.py",
        ),
        (
            "outcome_of",
            "EndgameTables.covers",
            "EndgameTables.probe",
            "EndgameTables.probe_rules",
            "EndgameTables._trivial",
            "EndgameTables.locate",
        ),
    ),
    Module("site/problems.py", ("tests/site/test_escaping.py",), ("markdown_literal",)),
    Module("render/svg.py", ("tests/render/test_escaping.py", "tests/render/test_svg.py")),
    # the escaping helpers of the diagrams' and the solution player's HTML
    Module(
        "render/html.py",
        ("tests/render/test_escaping.py", "tests/render/test_svg.py"),
        ("_label", "_caption", "_json_script", "_moves_html", "_line_html"),
    ),
    Module("rules/drawrules.py", ("tests/rules/",)),
)


@dataclass(frozen=True)
class HandMutant:
    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


HAND: tuple[HandMutant, ...] = (
    # the five of issue 43
    HandMutant(
        "walk-first-defence-only",
        "rulebook_build/engine/search.py",
        "below = [child for _move, child in known]",
        "below = [child for _move, child in known][: 1 if proof else None]",
        ("tests/checker/test_proof_walk.py",),
    ),
    HandMutant(
        "one-piece-ahead-ends",
        "rulebook_build/checker/analysis.py",
        "white >= black + 2",
        "white >= black + 1",
        ("tests/checker/test_end_of_problem.py",),
    ),
    HandMutant(
        "svg-title-unescaped",
        "rulebook_build/render/svg.py",
        "{escape(title, quote=False)}</title>",
        "{title}</title>",
        ("tests/render/test_escaping.py",),
    ),
    HandMutant(
        "pages-not-autoescaped",
        "rulebook_build/site/templating.py",  # the environment every page's template uses
        "autoescape=True,",
        "autoescape=False,",
        ("tests/site/test_escaping.py",),
    ),
    HandMutant(
        "art18-budget-one-ply-long",
        "rulebook_build/rules/drawrules.py",
        "(FRISIAN_TWO_KINGS_MOVES - clocks.strong_moves) - 1)",
        "(FRISIAN_TWO_KINGS_MOVES - clocks.strong_moves))",
        ("tests/rules/test_art18_budget.py",),
    ),
    # what mutmut cannot reach: the templates, and escaping in one-line helpers
    HandMutant(
        "problem-facts-marked-safe",
        "rulebook_build/site/templates/problem.html",
        "<dd>{{ value }}</dd>",
        "<dd>{{ value|safe }}</dd>",
        ("tests/site/test_escaping.py",),
    ),
    HandMutant(
        "problem-claims-marked-safe",
        "rulebook_build/site/templates/problem.html",
        "{{ claim.by }}",
        "{{ claim.by|safe }}",
        ("tests/site/test_escaping.py",),
    ),
    HandMutant(
        "collection-entry-title-marked-safe",
        "rulebook_build/site/templates/collection.html",
        ": {{ row.title }}",
        ": {{ row.title|safe }}",
        ("tests/site/test_escaping.py",),
    ),
    HandMutant(
        "collection-description-marked-safe",
        "rulebook_build/site/templates/collection.html",
        "<p>{{ description }}</p>",
        "<p>{{ description|safe }}</p>",
        ("tests/site/test_escaping.py",),
    ),
    HandMutant(
        "markdown-literal-keeps-html",
        "rulebook_build/site/problems.py",
        'escaped = html.escape(" ".join(text.split()), quote=False)',
        'escaped = " ".join(text.split())',
        ("tests/site/test_escaping.py",),
    ),
    HandMutant(
        "figcaption-unescaped",
        "rulebook_build/render/html.py",
        'f"<figcaption>{escape(caption, quote=False)}</figcaption>"',
        'f"<figcaption>{caption}</figcaption>"',
        ("tests/render/test_escaping.py",),
    ),
    HandMutant(
        "player-line-label-unescaped",
        "rulebook_build/render/html.py",
        "<strong>{escape(line.label)}</strong>",
        "<strong>{line.label}</strong>",
        ("tests/render/test_escaping.py",),
    ),
    HandMutant(
        "player-data-may-close-its-script",
        "rulebook_build/render/html.py",
        '.replace("<", "\\\\u003c")',
        "",
        ("tests/render/test_escaping.py",),
    ),
    # the comparison of two editions and the rule pages' history (site/editions.py,
    # site/history.py): their texts come from the rule pages and the editions/ tables
    HandMutant(
        "editions-not-autoescaped",
        "rulebook_build/site/templating.py",  # the environment every page's template uses
        "autoescape=True,",
        "autoescape=False,",
        ("tests/site/test_editions.py",),
    ),
    HandMutant(
        "editions-diff-text-marked-safe",
        "rulebook_build/site/templates/editions.html",
        "{% else %}{{ text }}{% endif %}",
        "{% else %}{{ text|safe }}{% endif %}",
        ("tests/site/test_editions.py",),
    ),
    HandMutant(
        "editions-article-left-out",
        "rulebook_build/site/editions.py",
        "if parts and not missing and not article.own_text:",
        "if True:",
        ("tests/site/test_editions.py",),
    ),
    HandMutant(
        "history-not-autoescaped",
        "rulebook_build/site/templating.py",  # the environment every page's template uses
        "autoescape=True,",
        "autoescape=False,",
        ("tests/site/test_history.py",),
    ),
    HandMutant(
        "history-hash-not-compared",
        "rulebook_build/site/history.py",
        "elif digest(path) != change.sha256:",
        "elif False:",
        ("tests/site/test_history.py",),
    ),
    HandMutant(
        "svg-desc-unescaped",
        "rulebook_build/render/svg.py",
        "{escape(description, quote=False)}</desc>",
        "{description}</desc>",
        ("tests/render/test_escaping.py",),
    ),
)

KILLED = {"killed", "timeout", "caught by type check"}


# ------------------------------------------------------------------ mutmut, module by module
def mutmut_section(module: Module) -> str:
    """The ``[tool.mutmut]`` of ``pyproject.toml``, narrowed to ``module`` and its tests."""
    config = dict(tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["tool"]["mutmut"])
    config["only_mutate"] = [f"{PACKAGE}/{module.path}"]
    config["pytest_add_cli_args_test_selection"] = list(module.tests)
    lines = ["[tool.mutmut]"]
    for key, value in config.items():
        lines.append(f"{key} = {json.dumps(value)}")  # strings, lists and booleans: TOML too
    return "\n".join(lines) + "\n"


def without_mutmut_section(text: str) -> str:
    """``pyproject.toml`` without its ``[tool.mutmut]`` table."""
    return re.sub(r"(?ms)^\[tool\.mutmut\]\n.*?(?=^\[|\Z)", "", text)


def module_folder(module: Module, base: Path, resume: bool = False) -> Path:
    folder = base / re.sub(r"[^\w.-]+", "_", module.path)
    if resume and (folder / "mutants").is_dir():
        return folder  # run_module gives mutmut only the mutants not killed yet
    if folder.exists():
        shutil.rmtree(folder)  # a run starts afresh: mutmut would keep old results
    folder.mkdir(parents=True)
    for name in LINKED:
        if (REPOSITORY / name).exists():
            (folder / name).symlink_to(REPOSITORY / name)
    text = without_mutmut_section((REPOSITORY / "pyproject.toml").read_text())
    (folder / "pyproject.toml").write_text(text.rstrip() + "\n\n" + mutmut_section(module))
    return folder


def mutmut(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    program = Path(sys.executable).with_name("mutmut")
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [str(program), *args], cwd=folder, capture_output=True, text=True, env=environment
    )


def statuses(folder: Path) -> dict[str, str]:
    listed = mutmut(folder, "results", "--all", "true")
    found = {}
    for line in listed.stdout.splitlines():
        name, separator, status = line.strip().rpartition(": ")
        if separator and "__mutmut_" in name:
            found[name] = status
    return found


def run_module(
    module: Module, base: Path, max_children: int, show: bool, resume: bool = False
) -> Counter[str]:
    folder = module_folder(module, base, resume)
    patterns = module.mutant_patterns()
    chosen = patterns
    if resume and (folder / "mutants").is_dir():
        # mutmut runs every mutant it is given by name: give it those not yet killed (not
        # run yet, survived, without tests), so survivors meet the tests as they are now
        chosen = sorted(
            name
            for name, status in statuses(folder).items()
            if status not in KILLED and any(fnmatch.fnmatchcase(name, p) for p in patterns)
        )
    started = time.monotonic()
    done = mutmut(folder, "run", "--max-children", str(max_children), *chosen)
    minutes = (time.monotonic() - started) / 60
    found = {
        name: status
        for name, status in statuses(folder).items()
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
    }
    if done.returncode != 0:
        # mutmut's own failure (its run without mutants failed, say): its mutants are then
        # reported "not checked", and the reason is here
        print(f"{module.path}: mutmut failed\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        if not found:
            return Counter()
    counts = Counter(found.values())
    killed = sum(counts[s] for s in KILLED)
    judged = killed + counts["survived"] + counts["no tests"]
    score = f"{100 * killed / judged:.1f}%" if judged else "-"
    others = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s not in KILLED)
    print(
        f"{module.path}: {killed}/{judged} killed ({score}); {others or 'no survivor'}; "
        f"{minutes:.1f} min; tests: {' '.join(module.tests)}",
        flush=True,
    )
    for name, status in sorted(found.items()):
        if status not in KILLED:
            print(f"  {status}: {name}")
            if show:
                diff = mutmut(folder, "show", name).stdout
                print("    " + "\n    ".join(diff.strip().splitlines()))
    return counts


# ------------------------------------------------------------------ hand mutants
def copy_project(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in LINKED:
        source = REPOSITORY / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, target / name)
    shutil.copy2(REPOSITORY / "pyproject.toml", target / "pyproject.toml")


def run_hand(mutants: list[HandMutant], base: Path) -> int:
    """Each mutant in the copy, its tests run there; the number that no test caught."""
    project = base / "hand"
    if project.exists():
        shutil.rmtree(project)
    copy_project(project)
    environment = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
    missed = 0
    for mutant in mutants:
        path = project / mutant.path
        original = path.read_text(encoding="utf-8")
        if original.count(mutant.old) != 1:
            print(f"stale     {mutant.name}: {mutant.old!r} is not once in {mutant.path}")
            missed += 1
            continue
        path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-q",
                    "-x",
                    "-n",
                    "0",
                    "-p",
                    "no:cacheprovider",
                    *mutant.tests,
                ],
                cwd=project,
                capture_output=True,
                text=True,
                env=environment,
            )
        finally:
            path.write_text(original, encoding="utf-8")
        last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
        if done.returncode == 1:
            print(f"killed    {mutant.name}: {last}")
        else:
            missed += 1
            state = "SURVIVED" if done.returncode == 0 else f"ERROR {done.returncode}"
            print(f"{state:9} {mutant.name}: {last}")
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="paths under rulebook_build/ (default: all)")
    parser.add_argument("--hand", action="store_true", help="run the hand mutants instead")
    parser.add_argument("--list", action="store_true", help="list the modules and hand mutants")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep", type=Path, help="work here (kept) instead of a temporary folder")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --keep: run again only the mutants a stopped or earlier run did not kill "
        "(not run yet, survived, without tests), against the tests as they are now",
    )
    options = parser.parse_args()
    if options.list:
        for module in MODULES:
            print(f"{module.path}: {' '.join(module.tests)}")
        for mutant in HAND:
            print(f"hand {mutant.name}: {mutant.path}: {' '.join(mutant.tests)}")
        return 0
    base = options.keep or Path(tempfile.mkdtemp(prefix="mutation-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, in {base}", flush=True)
    try:
        if options.hand:
            chosen = [m for m in HAND if not options.modules or m.name in options.modules]
            return 1 if run_hand(chosen, base) else 0
        known = {module.key: module for module in MODULES}
        unknown = [name for name in options.modules if name not in known]
        if unknown:
            parser.error(f"not in MODULES: {', '.join(unknown)} (see --list)")
        total: Counter[str] = Counter()
        for name in options.modules or list(known):
            total += run_module(
                known[name], base, options.max_children, options.show, options.resume
            )
        killed = sum(total[s] for s in KILLED)
        judged = killed + total["survived"] + total["no tests"]
        if judged:
            print(f"all: {killed}/{judged} killed ({100 * killed / judged:.1f}%)")
        return 0
    finally:
        if options.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
