"""Problem pages: ```` ```draughts-problem ```` and ```` ```draughts-problems ```` blocks.

A problem page holds one block naming its file in ``problems/``::

    ```draughts-problem
    file: international-01.pdn
    ```

and is rendered at build time from that file, so the page can never disagree with the
collection: the tags (title, composer, source, stipulation), the start diagram and a solution
player for the main line, the solution with Black's variations, and the checker's verdict per
criterion.  Verdicts come from ``problems/verdicts.jsonl`` (the output of
``rulebook check --json problems/``); a verdict is shown only while its digest matches the
problem, otherwise the build fails and says how to refresh it.

The index block lists the problems of one variant (``variant: international``) with links.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import jinja2
import markupsafe

from rulebook_build.checker.judge import CRITERIA, problem_digest
from rulebook_build.checker.messages import render
from rulebook_build.errors import SiteError
from rulebook_build.notation.fen import format_fen
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import ReplayedLine, game_variant, replay

VERDICTS_FILE: Final = "verdicts.jsonl"

LABELS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "composer": "Componist",
        "source": "Bron",
        "stipulation": "Opgave",
        "variant": "Spelvorm",
        "international": "Internationaal",
        "frisian": "Fries",
        "solution": "Oplossing",
        "verdict": "Beoordeling door het controleprogramma",
        "criterion": "Criterium",
        "status": "Uitslag",
        "detail": "Toelichting",
        "pass": "voldaan",
        "fail": "niet voldaan",
        "remark": "opmerking",
        "correct": "correct",
        "correct with remarks": "correct met opmerkingen",
        "incorrect": "niet correct",
        "undecided": "niet beslist",
        "sound": "correct",
        "unsound": "niet correct",
        "overall": "Eindoordeel",
        "keys": "Winnende sleutelzetten",
        "start": "Beginstand, wit speelt en wint",
        "none": "Er zijn nog geen problemen.",
        "unchecked": "Nog niet gecontroleerd.",
    },
    "en": {
        "composer": "Composer",
        "source": "Source",
        "stipulation": "Stipulation",
        "variant": "Variant",
        "international": "International",
        "frisian": "Frisian",
        "solution": "Solution",
        "verdict": "The checker's verdict",
        "criterion": "Criterion",
        "status": "Result",
        "detail": "Detail",
        "pass": "passed",
        "fail": "failed",
        "remark": "remark",
        "correct": "correct",
        "correct with remarks": "correct with remarks",
        "incorrect": "incorrect",
        "undecided": "undecided",
        "sound": "sound",
        "unsound": "unsound",
        "overall": "Verdict",
        "keys": "Winning keys",
        "start": "Start position, White to play and win",
        "none": "There are no problems yet.",
        "unchecked": "Not checked yet.",
    },
    "fy": {
        "composer": "Komponist",
        "source": "Boarne",
        "stipulation": "Opjefte",
        "variant": "Spulfoarm",
        "international": "Ynternasjonaal",
        "frisian": "Frysk",
        "solution": "Oplossing",
        "verdict": "It oardiel fan it kontrôleprogramma",
        "criterion": "Kritearium",
        "status": "Útslach",
        "detail": "Taljochting",
        "pass": "foldien",
        "fail": "net foldien",
        "remark": "opmerking",
        "correct": "korrekt",
        "correct with remarks": "korrekt mei opmerkings",
        "incorrect": "net korrekt",
        "undecided": "net besletten",
        "sound": "korrekt",
        "unsound": "net korrekt",
        "overall": "Einoardiel",
        "keys": "Winnende kaaizetten",
        "start": "Begjinstân, wyt spilet en wint",
        "none": "Der binne noch gjin problemen.",
        "unchecked": "Noch net kontrolearre.",
    },
}


STIPULATIONS: Final[dict[str, dict[str, str]]] = {
    # the usual stipulations of the PDN ``Stipulation`` tag, in the page's language
    "white to play and win": {
        "nl": "Wit speelt en wint",
        "en": "White to play and win",
        "fy": "Wyt spilet en wint",
    },
    "white to play and draw": {
        "nl": "Wit speelt en maakt remise",
        "en": "White to play and draw",
        "fy": "Wyt spilet en makket remise",
    },
}


MARKDOWN_ESCAPED: Final = frozenset("\\`*_{}[]()#+-.!")
"""The characters Python-Markdown takes literally after a backslash."""


def markdown_literal(text: str) -> str:
    """Outside text (a PDN tag) as Markdown that shows it literally and can form no markup: no
    HTML (``< > &`` become entities), no emphasis, link, heading attribute (``attr_list``'s
    braces) or footnote, on one line."""
    escaped = html.escape(" ".join(text.split()), quote=False)
    return "".join(f"\\{c}" if c in MARKDOWN_ESCAPED else c for c in escaped)


def problem_page(title: str, file_name: str) -> str:
    """The Markdown of a problem's page: its title and the block the plugin renders."""
    return f"# {markdown_literal(title)}\n\n```draughts-problem\nfile: {file_name}\n```\n"


def _label(lang: str, key: str) -> str:
    """The label of ``key`` in ``lang``; an unknown key (a status from a newer checker) is
    shown as it is (the templates escape it)."""
    return LABELS.get(lang, LABELS["en"]).get(key, key)


_TEMPLATES: Final = jinja2.Environment(
    loader=jinja2.PackageLoader("rulebook_build.site", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=False,
)
"""The problem pages' HTML: autoescaped, so a tag, comment or name from a PDN file is always
text (a file composers submit is outside text)."""


@dataclass(frozen=True, slots=True)
class _Problem:
    name: str
    game: PdnGame
    variant: str


class ProblemCollection:
    """The problems folder and its stored verdicts, read once per build."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._verdicts: dict[str, dict[str, object]] | None = None

    def verdicts(self) -> dict[str, dict[str, object]]:
        if self._verdicts is None:
            found: dict[str, dict[str, object]] = {}
            path = self.folder / VERDICTS_FILE
            if path.is_file():
                for line in path.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        record = json.loads(line)
                        found[str(record.get("digest"))] = record
            self._verdicts = found
        return self._verdicts

    def problem(self, name: str, *, where: str) -> _Problem:
        path = self.folder / name
        if not path.is_file():
            raise SiteError(f"no problem file {name!r} in {self.folder.name}/", source=where)
        games, errors = read_pdn_file(path)
        if errors:
            raise errors[0]
        problems = [g for g in games if g.is_problem]
        if len(problems) != 1:
            raise SiteError(
                f"{name} must hold exactly one problem (a game with a FEN tag)", source=where
            )
        variant = game_variant(problems[0])
        if variant is None:
            raise SiteError(f"{name}: GameType must be 20 or 40", source=where)
        return _Problem(name, problems[0], variant.name)

    def names(self) -> list[str]:
        return sorted(p.name for p in self.folder.glob("*.pdn"))


def _fields(text: str, *, where: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, separator, value = line.partition(":")
        if not separator:
            raise SiteError(
                f"expected 'key: value', got {line.strip()!r}", source=where, line=number
            )
        fields[key.strip().lower()] = value.strip()
    return fields


def _line_text(line: ReplayedLine, first_ply: int) -> str:
    """A line with move numbers and its variations in brackets.

    ``first_ply`` counts the plies before the line's first move (0: White's first move of
    move 1); a variation replaces a move, so it starts at that move's ply.
    """
    words: list[str] = []
    number_black = True  # a Black move gets "N..." at the start and after a variation
    for index, step in enumerate(line.moves):
        ply = first_ply + index
        number = ply // 2 + 1
        if step.white:
            words.append(f"{number}. {step.notation}")
        elif number_black:
            words.append(f"{number}... {step.notation}")
        else:
            words.append(step.notation)
        number_black = bool(step.variations)
        for variation in step.variations:
            words.append("(" + _line_text(variation, ply) + ")")
    return " ".join(words)


def render_problem(
    text: str,
    *,
    lang: str,
    where: str,
    collection: ProblemCollection,
    diagram: Callable[[str], str],
) -> str:
    """HTML of a problem page's block; ``diagram`` renders a ```` ```draughts ```` body."""
    name = _fields(text, where=where).get("file")
    if not name:
        raise SiteError("a draughts-problem block needs 'file: <name>.pdn'", source=where)
    problem = collection.problem(name, where=where)
    game = problem.game
    replayed = replay(game)
    start = replayed.start
    moves = " ".join(step.notation for step in replayed.main.moves)
    block = "\n".join(
        [
            f"position: {format_fen(start)}",
            f"variant: {problem.variant}",
            *([f"moves: {moves}"] if moves else []),
            "numbers: yes",
            f"caption: {_label(lang, 'start')}",
        ]
    )
    facts = []
    for key, tag in (
        ("composer", "Composer"),
        ("source", "Source"),
        ("stipulation", "Stipulation"),
    ):
        value = game.tag(tag)
        if value:
            if key == "stipulation":
                value = STIPULATIONS.get(value.strip().lower(), {}).get(lang, value)
            facts.append((_label(lang, key), value))
    facts.append((_label(lang, "variant"), _label(lang, problem.variant)))
    first_ply = 0 if replayed.main.start.white_to_move else 1
    return _TEMPLATES.get_template("problem.html").render(
        facts=facts,
        diagram=markupsafe.Markup(diagram(block)),  # our renderer's HTML
        solution=_line_text(replayed.main, first_ply),
        labels=_Labels(lang),
        **_verdict(problem, collection, lang=lang, where=where),
    )


class _Labels:
    """``labels.solution`` in a template: the label in the page's language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getattr__(self, key: str) -> str:
        return _label(self.lang, key)


def _detail(entry: dict[str, object], lang: str) -> str:
    """A criterion's detail in the page's language: from its message id and arguments where
    ``rulebook check`` wrote them, else the English ``detail``."""
    message, args = entry.get("message"), entry.get("args")
    if isinstance(message, str) and isinstance(args, dict):
        translated = render(message, args, lang)
        if translated is not None:
            return translated
    return str(entry.get("detail", ""))


def _verdict(
    problem: _Problem, collection: ProblemCollection, *, lang: str, where: str
) -> dict[str, object]:
    """What ``verdict.html`` shows: the grade, the winning keys, a row per criterion."""
    from rulebook_build.rules import find_variant

    digest = problem_digest(problem.game, find_variant(problem.variant))
    record = collection.verdicts().get(digest)
    if record is None:
        raise SiteError(
            f"{problem.name} has no stored verdict for its current text: run "
            f"'rulebook check --json problems/ > problems/{VERDICTS_FILE}'",
            source=where,
        )
    # the grade (correct, with remarks, incorrect, undecided); older records have a verdict only
    grade = str(record.get("grade", record.get("verdict")))
    winning_keys = record.get("winning_keys", [])
    keys = ", ".join(str(k) for k in winning_keys) if isinstance(winning_keys, list) else ""
    criteria = record.get("criteria", {})
    assert isinstance(criteria, dict)
    rows = []
    for name in CRITERIA:
        entry = criteria.get(name, {})
        status = str(entry.get("status", "undecided"))
        rows.append(
            {
                "name": name,
                "status": status,
                "label": _label(lang, status),
                "detail": _detail(entry, lang),
            }
        )
    return {"grade": _label(lang, grade), "keys": keys, "rows": rows}


def render_index(text: str, *, lang: str, where: str, collection: ProblemCollection) -> str:
    """HTML list of the problems of one variant, linking their pages (``<name>/``)."""
    wanted = _fields(text, where=where).get("variant", "")
    items = []
    verdicts = collection.verdicts()
    from rulebook_build.rules import find_variant

    for name in collection.names():
        problem = collection.problem(name, where=where)
        if wanted and problem.variant != wanted:
            continue
        record = verdicts.get(problem_digest(problem.game, find_variant(problem.variant)))
        grade = str(record.get("grade", record["verdict"])) if record else "unchecked"
        items.append(
            {
                "slug": name.removesuffix(".pdn"),
                "title": problem.game.tag("Title") or name,
                "grade": _label(lang, grade),
            }
        )
    return _TEMPLATES.get_template("problem_index.html").render(
        items=items, empty=_label(lang, "none")
    )
