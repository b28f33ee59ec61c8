"""Problem pages, collection pages and the index of every problem, made while the site builds.

The collections of ``problems/`` (see :mod:`rulebook_build.site.collections`) give every page:
the plugin adds, per language, a page per collection (``problemen/<collection>/``: for a
contest, its jury report) and a page per problem (``problemen/<collection>/<entry>/``), whose
Markdown is only a title and a block::

    ```draughts-problem            ```draughts-collection          ```draughts-problems
    collection: pwcp-2             collection: pwcp-2              ```
    entry: a1                      ```
    ```

rendered here from the PDN files and the stored verdicts (``problems/verdicts.jsonl``, the
output of ``rulebook check --json problems/``): the tags, the start diagram and a solution
player (with each cook, dual and false solution as a line to switch to), the solution with
Black's variations, the checker's grade and each criterion.  A verdict is shown only while its
digest matches the problem; otherwise the build fails and says how to refresh it.

Everything from a PDN file or a ``collection.toml`` is outside text: the Jinja2 templates
(``site/templates/``) escape it.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

import markupsafe

from rulebook_build.checker import CRITERIA, Criterion, Judgement, judgement_from_json, render
from rulebook_build.errors import SiteError
from rulebook_build.notation import DiagramSpec, ReplayedGame, line_text, resolve_line, write_game
from rulebook_build.render import Line
from rulebook_build.similar import POSSIBLE_ANTICIPATION
from rulebook_build.site.collections import Collection, Entry, localized, read_collections
from rulebook_build.site.opinions import beside, verdict_opinions
from rulebook_build.site.relatives import Relatives
from rulebook_build.site.templating import TEMPLATES
from rulebook_build.words import LANGUAGES, Message, define
from rulebook_build.words import text as said

VERDICTS_FILE: Final = "verdicts.jsonl"
# the faults of the stored verdicts and of a problem block, said to whoever builds the site
define("problems.not_json", "not a JSON line ({fault}); refresh it with '{command}'")
define(
    "problems.not_a_verdict",
    "{fault}: not a verdict 'rulebook check --json' writes; refresh it with '{command}'",
)
define("problems.no_collection", "no collection {slug} in problems/ (there are: {known})")
define("problems.no_problem", "no problem {slug} in collection {collection}")
define(
    "problems.no_verdict",
    "entry {entry} of {folder}/ has no stored verdict for its current text: run '{command}'",
)
define("problems.key_value", "expected 'key: value', got {line}")
define(
    "problems.block_fields",
    "a draughts-problem block needs 'collection: <folder>' and 'entry: <name>'",
)
define(
    "problems.award_for_zero",
    "entry {entry} is incorrect by the checker and scores 0 (unsound_scores_zero), yet has a "
    "rank or an award: set 'allowed = true' in its [[awards]] if the jury allows it (art. 2C), "
    "or remove them",
)

REFRESH: Final = (
    "rulebook check --json --deterministic --time-limit 20 --jobs 2 problems/ "
    f"> problems/{VERDICTS_FILE}"
)
"""The command that refreshes the stored verdicts whole (guides/contests.md)."""
UPDATE: Final = (
    "rulebook check --json --deterministic --time-limit 20 "
    f"--update problems/{VERDICTS_FILE} problems/{{folder}}/"
)
"""The command that judges one collection into the stored verdicts, keeping the others."""
GRADES: Final = ("correct", "correct with remarks", "incorrect", "undecided")
SHOWN_DUALS: Final = 3
"""At most this many duals (faults and remarks) become lines of a problem's player."""

_LABEL_IDS: Final[dict[str, str]] = {
    "composer": define("problems.composer", "Composer"),
    "source": define("problems.source", "Source"),
    "stipulation": define("problems.stipulation", "Stipulation"),
    "variant": define("problems.variant", "Variant"),
    "international": define("problems.international", "International"),
    "frisian": define("problems.frisian", "Frisian"),
    "solution": define("problems.solution", "Solution"),
    "verdict": define("problems.verdict", "The checker's verdict"),
    "criterion": define("problems.criterion", "Criterion"),
    "status": define("problems.status", "Result"),
    "detail": define("problems.detail", "Detail"),
    "pass": define("problems.pass", "passed"),
    "fail": define("problems.fail", "failed"),
    "remark": define("problems.remark", "remark"),
    "correct": define("problems.correct", "correct"),
    "correct with remarks": define("problems.correct_with_remarks", "correct with remarks"),
    "incorrect": define("problems.incorrect", "incorrect"),
    "undecided": define("problems.undecided", "undecided"),
    "sound": define("problems.sound", "sound"),
    "unsound": define("problems.unsound", "unsound"),
    "overall": define("problems.overall", "Verdict"),
    "keys": define("problems.keys", "Winning keys"),
    "start": define("problems.start", "Start position, White to play and win"),
    "none": define("problems.none", "There are no problems yet."),
    "unchecked": define("problems.unchecked", "not checked"),
    "relatives": define("problems.relatives", "Related problems"),
    "relatives_intro": define(
        "problems.relatives_intro",
        "The problems of this site most like this one, found by 'rulebook similar'. A possible "
        "anticipation has the same position (but for a piece or two) or the same final "
        "combination and was published earlier; whether it anticipates this problem is the "
        "jury's to say.",
    ),
    "possible_anticipation": define("problems.possible_anticipation", "possible anticipation"),
    "likeness": define("problems.likeness", "likeness"),
    "relatives_contest": define("problems.relatives_contest", "Like"),
    "more_opinions": define("problems.more_opinions", "{count} more on the problem's page"),
    "publication": define("problems.publication", "Published"),
    "collection": define("problems.collection", "Collection"),
    "number": define("problems.number", "No."),
    "entry": define("problems.entry", "Problem"),
    "grade": define("problems.grade", "Grade"),
    "findings": define("problems.findings", "Faults and remarks"),
    "points": define("problems.points", "Points"),
    "claims": define("problems.claims", "Claims"),
    "pieces": define("problems.pieces", "Pieces"),
    "diagram": define("problems.diagram", "Position"),
    "all": define("problems.all", "all"),
    "filter_grade": define("problems.filter_grade", "Grade"),
    "filter_variant": define("problems.filter_variant", "Variant"),
    "filter_collection": define("problems.filter_collection", "Collection"),
    "filter_pieces": define("problems.filter_pieces", "Pieces"),
    "search": define("problems.search", "Search (composer, collection, title)"),
    "shown": define("problems.shown", "{shown} of {total} shown"),
    "organiser": define("problems.organiser", "Organiser"),
    "jury": define("problems.jury", "Jury"),
    "date": define("problems.date", "Date"),
    "stage": define("problems.stage", "Stage"),
    "stage_positions": define("problems.stage_positions", "positions published"),
    "stage_solutions": define("problems.stage_solutions", "solutions published"),
    "stage_preliminary": define("problems.stage_preliminary", "preliminary award"),
    "stage_final": define("problems.stage_final", "final award"),
    "kind_contest": define("problems.kind_contest", "contest"),
    "kind_collection": define("problems.kind_collection", "collection"),
    "kind_examples": define("problems.kind_examples", "examples"),
    "kind": define("problems.kind", "Kind"),
    "problems": define("problems.problems", "Problems"),
    "collections": define("problems.collections", "Collections and contests"),
    "all_problems": define("problems.all_problems", "All problems"),
    "example_credit": define("problems.example_credit", "Composed for this site as an example"),
    "no_composer": define("problems.no_composer", "not named in the source"),
    "cook": define("problems.cook", "Cook"),
    "cook_sentence": define(
        "problems.cook_sentence",
        "White also wins with {key}: a second solution, a fault (criterion C).",
    ),
    "cook_combination": define(
        "problems.cook_combination",
        "White also wins with {key}; this second solution is itself a combination (the jury may "
        "allow it, art. 2C).",
    ),
    "dual": define("problems.dual", "Dual"),
    "dual_fail": define(
        "problems.dual_fail",
        "After {after}, {move} wins as well: a second winning move inside the combination, a "
        "fault (criterion C).",
    ),
    "dual_remark": define(
        "problems.dual_remark",
        "After {after}, {move} wins as well: a second winning move in a variation, a remark "
        "(criterion C).",
    ),
    "try": define("problems.try", "Try"),
    "try_sentence": define(
        "problems.try_sentence",
        "{key} looks like the solution, but Black refutes with {refutation}.",
    ),
    "false": define("problems.false", "Solution refuted"),
    "false_sentence": define(
        "problems.false_sentence",
        "The published solution does not win: Black refutes with {refutation}.",
    ),
    "claim_cook": define("problems.claim_cook", "cook"),
    "claim_anticipation": define("problems.claim_anticipation", "anticipation"),
    "claim_other": define("problems.claim_other", "claim"),
    "report_note": define(
        "problems.report_note",
        "Each entry's grade by the site's checker; the jury weighs it.",
    ),
    "skip_to_player": define("problems.skip_to_player", "Skip to the solution step by step"),
    "unpublished": define("problems.unpublished", "to follow"),
    "solutions_later": define(
        "problems.solutions_later",
        "The solution and the verdict are published when the contest's solving period has ended.",
    ),
    "anonymous": define("problems.anonymous", "anonymous until the award"),
    "unplayable": define("problems.unplayable", "could not be judged as written"),
    "unplayable_detail": define(
        "problems.unplayable_detail",
        "the solution cannot be played as written: move {move} is not legal there{where}. The "
        "checker judges the entry once the text is mended.",
    ),
    "unplayable_variation": define("problems.unplayable_variation", " (in a variation)"),
    "unplayable_short": define(
        "problems.unplayable_short",
        "move {move} is not legal there{where}",
    ),
    "unplayable_other": define(
        "problems.unplayable_other",
        "the solution cannot be played as written ({message}).",
    ),
    "rank": define("problems.rank", "Rank"),
    "award": define("problems.award", "Award"),
    "award_prize": define("problems.award_prize", "prize"),
    "award_honourable-mention": define("problems.award_honourable_mention", "honourable mention"),
    "award_commendation": define("problems.award_commendation", "commendation"),
    "jury_report": define("problems.jury_report", "The jury's verdict"),
    "unsound_zero": define("problems.unsound_zero", "0: incorrect"),
    "allowed": define("problems.allowed", "allowed by the jury (art. 2C)"),
    "legend": define("problems.legend", "What the grades and criteria mean"),
    "legend_intro": define(
        "problems.legend_intro",
        "The site's checker tests every entry against the conditions of the Problemistenwedstrijd",
    ),
    "legend_rules": define(
        "problems.legend_rules",
        "Fries Spel, supplementary regulations H, art. 2",
    ),
    "grade_meaning_correct": define(
        "problems.grade_meaning_correct",
        "every condition is proved to hold",
    ),
    "grade_meaning_correct with remarks": define(
        "problems.grade_meaning_correct_with_remarks",
        "correct, with a remark for the jury (a second winning move in a variation)",
    ),
    "grade_meaning_incorrect": define(
        "problems.grade_meaning_incorrect",
        "a condition is proved not to hold, or the solution does not win",
    ),
    "grade_meaning_undecided": define(
        "problems.grade_meaning_undecided",
        "nothing was found wrong, but not everything could be proved in the time",
    ),
    "criterion_A": define("problems.criterion_A", "White to play and win"),
    "criterion_B1": define("problems.criterion_B1", "the start position can arise in a game"),
    "criterion_B2": define("problems.criterion_B2", "no material advantage for White"),
    "criterion_B3": define("problems.criterion_B3", "no kings on the board"),
    "criterion_B4": define("problems.criterion_B4", "no black man capturable"),
    "criterion_C": define("problems.criterion_C", "no second solution"),
    "criterion_D": define("problems.criterion_D", "every man has a purpose"),
    "criterion_E": define("problems.criterion_E", "no transposition of moves"),
    "criterion_F": define("problems.criterion_F", "the men are brought to where the problem ends"),
    "criterion_G": define("problems.criterion_G", "the endgame or motif wins in one clear way"),
}
"""The problem and collection pages' words by their short name here: their English here,
their Dutch and Frisian in the words' catalogs."""
LABELS: Final[dict[str, dict[str, str]]] = {
    lang: {key: said(message, lang) for key, message in _LABEL_IDS.items()} for lang in LANGUAGES
}
"""Each language's words, read from the catalogs once."""


STIPULATIONS: Final[dict[str, str]] = {
    # the usual stipulations of the PDN ``Stipulation`` tag, shown in the page's language
    "white to play and win": define("problems.stipulation_win", "White to play and win"),
    "white to play and draw": define("problems.stipulation_draw", "White to play and draw"),
}


MARKDOWN_ESCAPED: Final = frozenset("\\`*_{}[]()#+-.!")
"""The characters Python-Markdown takes literally after a backslash."""


def markdown_literal(text: str) -> str:
    """Outside text (a PDN tag) as Markdown that shows it literally and can form no markup: no
    HTML (``< > &`` become entities), no emphasis, link, heading attribute (``attr_list``'s
    braces) or footnote, on one line."""
    escaped = html.escape(" ".join(text.split()), quote=False)
    return "".join(f"\\{c}" if c in MARKDOWN_ESCAPED else c for c in escaped)


def problem_markdown(entry: Entry) -> str:
    """The Markdown of a problem's page: its title (the plugin adds the page from the entry,
    :func:`render_problem_page`)."""
    return f"# {markdown_literal(entry.title)}\n"


COLLECTION_FRONT_MATTER: Final = "---\nhide:\n  - toc\n---\n"
"""A collection's page has no table of contents beside it: its report is a table of many
columns (a contest's final award has eleven), which needs the width of the page to be read
without scrolling sideways."""


def collection_markdown(collection: Collection, lang: str) -> str:
    """The Markdown of a collection's page (a contest's jury report): its front matter and its
    title (the plugin adds the page from the collection, :func:`render_collection_page`)."""
    return f"{COLLECTION_FRONT_MATTER}# {markdown_literal(localized(collection.title, lang))}\n"


ROOT_LANGUAGE: Final = "nl"
"""The language served at the site's root; the others live under ``<lang>/``."""


def home(root: str, lang: str) -> str:
    """The root of ``lang``'s pages, from the site's root (``root``, relative to the page):
    a page links the pages of its own language; the assets are shared at the site's root."""
    return root if lang == ROOT_LANGUAGE else f"{root}{lang}/"


def _label(lang: str, key: str) -> str:
    """The label of ``key`` in ``lang``; an unknown key (a status from a newer checker) is
    shown as it is (the templates escape it)."""
    return LABELS.get(lang, LABELS["en"]).get(key, key)


_TEMPLATES: Final = TEMPLATES
"""The problem pages' HTML: autoescaped, so a tag, comment or name from a PDN file is always
text (a file composers submit is outside text)."""


class _Labels:
    """``labels.solution`` in a template: the label in the page's language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getattr__(self, key: str) -> str:
        return _label(self.lang, key)


def _detail(criterion: Criterion, lang: str) -> str:
    """A criterion's detail in the page's language: from its message id and arguments where
    ``rulebook check`` wrote them, else the English ``detail``."""
    if criterion.message:
        translated = render(criterion.message, criterion.args, lang)
        if translated is not None:
            return translated
    return criterion.detail


class ProblemSite:
    """The collections of ``problems/`` and their stored verdicts, read once per build."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._collections: list[Collection] | None = None
        self._verdicts: dict[str, Judgement] | None = None
        self._relatives: Relatives | None = None

    @property
    def collections(self) -> list[Collection]:
        if self._collections is None:
            self._collections = read_collections(self.folder)
        return self._collections

    @property
    def relatives(self) -> Relatives:
        """The problems like each problem (the anticipation search over every collection)."""
        if self._relatives is None:
            self._relatives = Relatives([e for c in self.collections for e in c.entries])
        return self._relatives

    def verdicts(self) -> dict[str, Judgement]:
        """The stored verdicts by digest, each read into the ``Judgement`` that wrote it."""
        if self._verdicts is None:
            found: dict[str, Judgement] = {}
            path = self.folder / VERDICTS_FILE
            if path.is_file():
                for number, line in enumerate(
                    path.read_text(encoding="utf-8").splitlines(), start=1
                ):
                    if not line.strip():
                        continue
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as error:
                        raise SiteError(
                            Message.of("problems.not_json", fault=error.msg, command=REFRESH),
                            source=str(path),
                            line=number,
                        ) from None
                    try:
                        judgement = judgement_from_json(record, "the stored verdict")
                    except ValueError as error:
                        raise SiteError(
                            Message.of("problems.not_a_verdict", fault=str(error), command=REFRESH),
                            source=str(path),
                            line=number,
                        ) from None
                    found[judgement.digest] = judgement
            self._verdicts = found
        return self._verdicts

    def collection(self, slug: str, *, where: str) -> Collection:
        for collection in self.collections:
            if collection.slug == slug:
                return collection
        known = ", ".join(c.slug for c in self.collections) or "none"
        raise SiteError(
            Message.of("problems.no_collection", slug=repr(slug), known=known), source=where
        )

    def entry(self, collection: str, slug: str, *, where: str) -> Entry:
        found = self.collection(collection, where=where).entry(slug)
        if found is None:
            raise SiteError(
                Message.of("problems.no_problem", slug=repr(slug), collection=repr(collection)),
                source=where,
            )
        return found

    def record(self, entry: Entry) -> Judgement | None:
        return self.verdicts().get(entry.digest)

    def checked_record(self, entry: Entry) -> Judgement:
        record = self.record(entry)
        if record is None:
            # located at the entry, not at the page asking: the collection's page
            # and the entry's page then give one message, which the build prints once
            folder = entry.collection.folder.name
            raise SiteError(
                Message.of(
                    "problems.no_verdict",
                    entry=entry.name,
                    folder=folder,
                    command=UPDATE.format(folder=folder),
                ),
                source=entry.game.source,
                line=entry.game.line,
            )
        return record


def _fields(text: str, *, where: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, separator, value = line.partition(":")
        if not separator:
            raise SiteError(
                Message.of("problems.key_value", line=repr(line.strip())), source=where, line=number
            )
        fields[key.strip().lower()] = value.strip()
    return fields


def _grade(record: Judgement | None) -> str:
    if record is None:
        return "unchecked"
    return record.grade


def _grade_class(grade: str) -> str:
    """A grade as a CSS class suffix: ``correct with remarks`` -> ``correct-with-remarks``."""
    return grade.replace(" ", "-")


def _findings(record: Judgement | None, lang: str) -> list[dict[str, object]]:
    """The faults and remarks of a verdict, one line each (criterion, status, detail); of an
    undecided one, also what is open, with the engine's first opinion on it."""
    if record is None:
        return []
    shown = ("fail", "remark", "undecided") if _grade(record) == "undecided" else ("fail", "remark")
    found: list[dict[str, object]] = []
    besides: set[int] = set()  # the opinions already beside a criterion of this row
    for name in CRITERIA:
        criterion = record.criteria[name]
        if criterion.status in shown:
            opinions, more = (
                beside(record, name, lang, besides) if criterion.status == "undecided" else ([], 0)
            )
            found.append(
                {
                    "name": name,
                    "status": criterion.status,
                    "detail": _detail(criterion, lang),
                    "opinions": opinions,
                    "more": more,
                }
            )
    error = record.solution.error
    if error and not found:
        found.append({"name": "A", "status": "fail", "detail": error, "opinions": [], "more": 0})
    return found


def alternative_lines(record: Judgement, lang: str) -> list[tuple[str, str, str]]:
    """The lines a problem's player offers besides the solution, from its verdict: each cook,
    each dual that is a fault or a remark (at most :data:`SHOWN_DUALS`), each false solution
    (a try, or the published solution where Black refutes it).  Each is (label, the jury's
    sentence in ``lang``, the moves from the start)."""
    lines: list[tuple[str, str, str]] = []
    for cook in record.cooks:
        key, moves = cook.key, " ".join(cook.line)
        sentence = "cook_combination" if cook.combination else "cook_sentence"
        lines.append(
            (f"{_label(lang, 'cook')} {key}", _label(lang, sentence).format(key=key), moves)
        )
    duals = [d for d in record.duals if d.level in ("fail", "remark")]
    seconds = Counter(d.moves[1] for d in duals[:SHOWN_DUALS] if len(d.moves) >= 2)
    for dual in duals[:SHOWN_DUALS]:
        after, winning = " ".join(dual.after), dual.moves
        if len(winning) < 2 or not after:
            continue
        sentence = _label(lang, f"dual_{dual.level}").format(after=after, move=winning[1])
        label = f"{_label(lang, 'dual')} {winning[1]}"
        if seconds[winning[1]] > 1:  # the same move after other defences: name the defence
            label = f"{label} ({after.split()[-1]})"
        lines.append((label, sentence, f"{after} {winning[1]}"))
    if record.solution.refutation:
        refuted = " ".join(record.solution.refutation)
        lines.append(
            (
                _label(lang, "false"),
                _label(lang, "false_sentence").format(refutation=refuted.split()[-1]),
                refuted,
            )
        )
    for found in record.tries:
        key, refutation = found.key, found.refutation
        lines.append(
            (
                f"{_label(lang, 'try')} {key}?",
                _label(lang, "try_sentence").format(key=key, refutation=refutation),
                " ".join(found.line),
            )
        )
    return lines


Diagram = Callable[[DiagramSpec, Sequence[Line]], str]
"""Renders a diagram, with the player's other lines, as HTML."""


def render_problem(
    text: str, *, lang: str, where: str, site: ProblemSite, diagram: Diagram, root: str
) -> str:
    """HTML of a ```` ```draughts-problem ```` block written in a page (``root``: the site's
    root, relative to the page): the problem it names, as :func:`render_problem_page`."""
    fields = _fields(text, where=where)
    if not fields.get("collection") or not fields.get("entry"):
        raise SiteError(Message.of("problems.block_fields"), source=where)
    entry = site.entry(fields["collection"], fields["entry"], where=where)
    return render_problem_page(entry, lang=lang, where=where, site=site, diagram=diagram, root=root)


def render_problem_page(
    entry: Entry, *, lang: str, where: str, site: ProblemSite, diagram: Diagram, root: str
) -> str:
    """HTML of a problem's page below its title, from the entry and its stored verdict
    (``where``: the place an error is reported at)."""
    collection = entry.collection
    solutions = collection.publishes("solutions")
    judged = solutions and entry.unplayable is None
    record = site.checked_record(entry) if judged else None
    game = entry.game
    replayed = entry.replayed  # as the collection read it: nothing is read again here
    start = replayed.start if replayed is not None else entry.start
    spec = DiagramSpec(
        position=start,
        variant=start.variant,
        moves=tuple(step.move for step in replayed.main.moves) if solutions and replayed else (),
        numbers=True,
        caption=_label(lang, "start"),
    )
    facts: list[tuple[str, str]] = []
    if collection.kind == "examples":
        facts.append((_label(lang, "source"), _label(lang, "example_credit")))
    elif not collection.publishes("composers"):
        facts.append((_label(lang, "composer"), _label(lang, "anonymous")))
    else:
        facts.append((_label(lang, "composer"), entry.composer or _label(lang, "no_composer")))
        if entry.publication:
            facts.append((_label(lang, "publication"), entry.publication))
    stipulation = game.tag("Stipulation")
    if stipulation:
        known = STIPULATIONS.get(stipulation.strip().lower())
        value = stipulation if known is None else said(known, lang)
        facts.append((_label(lang, "stipulation"), value))
    facts.append((_label(lang, "variant"), _label(lang, entry.variant)))
    lines = [
        Line(label, sentence, resolve_line(start, moves))
        for label, sentence, moves in (
            alternative_lines(record, lang) if spec.moves and record is not None else []
        )
    ]
    return _TEMPLATES.get_template("problem.html").render(
        facts=facts,
        collection={
            "title": localized(collection.title, lang),
            "href": f"{home(root, lang)}problemen/{collection.slug}/",
            "name": entry.name,
        },
        diagram=markupsafe.Markup(diagram(spec, lines)),  # our renderer's HTML
        solution=_solution_text(entry, replayed) if solutions else None,
        unplayable=_unplayable(entry, lang) if solutions else None,
        labels=_Labels(lang),
        claims=_claims(entry, lang) if solutions else [],
        verdict=_verdict(record, lang) if record is not None else None,
        award=_award(entry, record, lang, where=where),
        relatives=relatives(entry, site, lang, root),
    )


def _solution_text(entry: Entry, replayed: ReplayedGame | None) -> str:
    """The solution as text: replayed (forced replies filled in), or as written when it cannot
    be played."""
    if replayed is None:
        return write_game(entry.game).partition("\n\n")[2].strip()
    return line_text(replayed.main, 0 if replayed.main.start.white_to_move else 1)


def _unplayable(entry: Entry, lang: str) -> dict[str, str] | None:
    """What an entry's pages say instead of a grade when its solution cannot be played as
    written: the words, and why (the move, by its number), in a sentence for its page and
    short for its row of a table."""
    fault = entry.unplayable
    if fault is None:
        return None
    if fault.move:
        where = _label(lang, "unplayable_variation") if fault.in_variation else ""
        detail = _label(lang, "unplayable_detail").format(move=fault.move, where=where)
        short = _label(lang, "unplayable_short").format(move=fault.move, where=where)
    else:
        detail = short = _label(lang, "unplayable_other").format(message=fault.error.message)
    return {
        "grade": _label(lang, "unplayable"),
        "detail": detail[:1].upper() + detail[1:],
        "short": short,
    }


def relatives(
    entry: Entry, site: ProblemSite, lang: str, root: str, *, least: float = 0.0
) -> list[dict[str, object]]:
    """The problems like ``entry`` scoring ``least`` or more, as its pages show them.

    A final combination's moves would give a solution away: such a match is shown only when
    both problems' solutions are published at their contests' stages."""
    found = []
    for relative in site.relatives.of(entry):
        other, match = relative.entry, relative.match
        if match.score < least:
            continue
        if match.kind == "combination" and not (
            entry.collection.publishes("solutions") and other.collection.publishes("solutions")
        ):
            continue
        own = (other.game.tag("Title") or "").strip()
        shown = other.collection.publishes("composers") and other.collection.kind != "examples"
        found.append(
            {
                "href": f"{home(root, lang)}problemen/{other.collection.slug}/{other.slug}/",
                "name": f"{localized(other.collection.title, lang)}, {other.name}",
                "title": own,
                "by": ", ".join(t for t in (other.composer, other.publication) if t)
                if shown
                else "",
                "likeness": f"{round(match.score * 100)}%",
                "reason": relative.reason(lang),
                "anticipation": relative.anticipation,
            }
        )
    return found


def _number(value: float) -> str:
    """Points as the jury writes them: ``12``, ``12.5``."""
    return f"{value:g}"


def _points(entry: Entry, record: Judgement | None) -> tuple[float | None, bool]:
    """The points an entry shows, and whether the contest's rule made them 0: an entry the
    checker finds incorrect scores 0 where ``unsound_scores_zero`` says so, unless the jury
    allowed it (art. 2C)."""
    award = entry.award
    allowed = award is not None and award.allowed
    if entry.collection.unsound_scores_zero and _grade(record) == "incorrect" and not allowed:
        return 0.0, True
    return entry.points, False


def _award(
    entry: Entry, record: Judgement | None, lang: str, *, where: str
) -> dict[str, object] | None:
    """The jury's points, rank, award and words on an entry, where its stage publishes them."""
    if not entry.collection.publishes("awards") or entry.collection.kind != "contest":
        return None
    award = entry.award
    points, zero = _points(entry, record)
    if zero and award is not None and (award.rank is not None or award.award):
        raise SiteError(Message.of("problems.award_for_zero", entry=repr(entry.name)), source=where)
    if award is None and points is None:
        return None
    return {
        "rank": award.rank if award else None,
        "label": _label(lang, f"award_{award.award}") if award and award.award else "",
        "text": localized(award.text, lang) if award else "",
        "allowed": bool(award and award.allowed),
        "points": None if points is None else _number(points),
        "zero": zero,
    }


def _claims(entry: Entry, lang: str) -> list[dict[str, str]]:
    return [
        {
            "kind": _label(lang, f"claim_{claim.kind}"),
            "line": claim.line,
            "by": localized(claim.by, lang),
            "text": localized(claim.text, lang),
        }
        for claim in entry.claims
    ]


def _verdict(record: Judgement, lang: str) -> dict[str, object]:
    """What ``verdict.html`` shows: the grade, the winning keys, a row per criterion, and the
    engine's opinions on what stayed open."""
    grade = _grade(record)
    rows = [
        {
            "name": name,
            "status": record.criteria[name].status,
            "label": _label(lang, record.criteria[name].status),
            "detail": _detail(record.criteria[name], lang),
        }
        for name in CRITERIA
    ]
    return {
        "grade": _label(lang, grade),
        "grade_class": _grade_class(grade),
        "keys": ", ".join(record.winning_keys),
        "rows": rows,
        "opinions": verdict_opinions(record, lang),
    }


def thumbnail_path(entry: Entry) -> str:
    """Where a problem's small diagram lies in the built site (one file per digest)."""
    return f"assets/rulebook/problems/{entry.digest}.svg"


def _row(entry: Entry, site: ProblemSite, lang: str, root: str, where: str) -> dict[str, object]:
    """What a collection's table and the index show of an entry, at its contest's stage."""
    collection = entry.collection
    solutions = collection.publishes("solutions")
    unplayable = _unplayable(entry, lang) if solutions else None
    record = site.record(entry) if solutions and unplayable is None else None
    grade = _grade(record) if solutions else "unpublished"
    findings = _findings(record, lang)
    if unplayable is not None:  # not judged: a stored grade of an older checker is not shown
        grade = "unplayable"
        findings = [
            {
                "name": _label(lang, "solution"),
                "status": "fail",
                "detail": unplayable["short"],
                "opinions": [],
                "more": 0,
            }
        ]
    if collection.kind == "examples":
        composer = _label(lang, "example_credit")
    elif not collection.publishes("composers"):
        composer = _label(lang, "anonymous")
    else:
        composer = entry.composer
    award = _award(entry, record, lang, where=where)
    return {
        "number": entry.number,
        "name": entry.name,
        "title": entry.title,
        "href": f"{home(root, lang)}problemen/{collection.slug}/{entry.slug}/",
        "thumb": f"{root}{thumbnail_path(entry)}",
        "composer": composer,
        "publication": (
            entry.publication
            if collection.kind != "examples" and collection.publishes("composers")
            else ""
        ),
        "collection": localized(collection.title, lang),
        "collection_slug": collection.slug,
        "variant": entry.variant,
        "variant_label": _label(lang, entry.variant),
        "pieces": entry.pieces,
        "grade": grade,
        "grade_label": _label(lang, grade),
        "grade_class": _grade_class(grade),
        "findings": findings,
        "points": award["points"] if award else None,
        "zero": bool(award and award["zero"]),
        "rank": award["rank"] if award else None,
        "award": award["label"] if award else "",
        "allowed": bool(award and award["allowed"]),
        "claims": _claims(entry, lang) if solutions else [],
        "relatives": (
            relatives(entry, site, lang, root, least=POSSIBLE_ANTICIPATION)
            if collection.kind == "contest"
            else []
        ),
    }


def render_collection(text: str, *, lang: str, where: str, site: ProblemSite, root: str) -> str:
    """HTML of a ```` ```draughts-collection ```` block written in a page: the collection it
    names, as :func:`render_collection_page`."""
    slug = _fields(text, where=where).get("collection", "")
    collection = site.collection(slug, where=where)
    return render_collection_page(collection, lang=lang, where=where, site=site, root=root)


def render_collection_page(
    collection: Collection, *, lang: str, where: str, site: ProblemSite, root: str
) -> str:
    """HTML of a collection's page below its title: what it is, then a row per problem (for a
    contest, its jury report: grade, faults and remarks, points and claims where published),
    sortable and filterable by a small script; the plain table works without it."""
    solutions = collection.publishes("solutions")
    if solutions:
        for entry in collection.entries:
            if entry.unplayable is None:  # an entry that cannot be played is not judged
                site.checked_record(entry)
    rows = [_row(entry, site, lang, root, where) for entry in collection.entries]
    facts = [
        (_label(lang, "kind"), _label(lang, f"kind_{collection.kind}")),
        (_label(lang, "date"), collection.date),
        (_label(lang, "organiser"), localized(collection.organiser, lang)),
        (_label(lang, "jury"), localized(collection.jury, lang)),
        (
            _label(lang, "stage"),
            _label(lang, f"stage_{collection.stage}") if collection.stage else "",
        ),
        (_label(lang, "source"), localized(collection.source, lang)),
    ]
    return _TEMPLATES.get_template("collection.html").render(
        collection=collection,
        description=localized(collection.description, lang),
        facts=[(label, value) for label, value in facts if value],
        source_url=collection.source_url if collection.source_url.startswith("https://") else "",
        rows=rows,
        counts=_counts(rows, lang) if solutions else [],
        solutions=solutions,
        legend=_legend(lang, root) if solutions else None,
        has_points=any(row["points"] is not None for row in rows),
        has_ranks=any(row["rank"] is not None for row in rows),
        has_awards=any(row["award"] for row in rows),
        has_claims=any(row["claims"] for row in rows),
        has_relatives=any(row["relatives"] for row in rows),
        variants=sorted({str(row["variant"]) for row in rows}),
        grades=[(g, _label(lang, g)) for g in GRADES],
        labels=_Labels(lang),
    )


def _legend(lang: str, root: str) -> dict[str, object]:
    """What a jury report's grades and criteria mean, with a link to the articles."""
    return {
        "rules_href": f"{home(root, lang)}regels/fries-spel/#h-art-2",
        "grades": [
            (_grade_class(g), _label(lang, g), _label(lang, f"grade_meaning_{g}")) for g in GRADES
        ],
        "criteria": [(name, _label(lang, f"criterion_{name}")) for name in CRITERIA],
    }


def _counts(rows: list[dict[str, object]], lang: str) -> list[tuple[str, str, int]]:
    counted = Counter(str(row["grade"]) for row in rows)
    return [
        (_grade_class(grade), _label(lang, grade), counted[grade])
        for grade in (*GRADES, "unplayable", "unchecked", "unpublished")
        if counted[grade]
    ]


def render_index(text: str, *, lang: str, where: str, site: ProblemSite, root: str) -> str:
    """HTML of the problems index: the collections, then every problem with its small
    diagram, filterable by variant, grade, pieces and collection and searchable by composer,
    collection and title (the list works without the script)."""
    wanted = _fields(text, where=where).get("variant", "")
    every = {
        c.slug: [_row(e, site, lang, root, where) for e in c.entries] for c in site.collections
    }
    collections = [
        {
            "title": localized(c.title, lang),
            "href": f"{home(root, lang)}problemen/{c.slug}/",
            "kind": _label(lang, f"kind_{c.kind}"),
            "date": c.date,
            "count": len(c.entries),
            "counts": _counts(every[c.slug], lang),
        }
        for c in site.collections
    ]
    rows = [
        row
        for collection in site.collections
        for row in every[collection.slug]
        if not wanted or row["variant"] == wanted
    ]
    return _TEMPLATES.get_template("problem_index.html").render(
        collections=collections,
        rows=rows,
        empty=_label(lang, "none"),
        variants=sorted({str(row["variant"]) for row in rows}),
        grades=[(g, _label(lang, g)) for g in GRADES],
        collection_names=[(c.slug, localized(c.title, lang)) for c in site.collections],
        labels=_Labels(lang),
    )
