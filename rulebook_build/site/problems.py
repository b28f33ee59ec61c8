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

VERDICTS_FILE: Final = "verdicts.jsonl"
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


EXTRA_LABELS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "relatives": "Verwante problemen",
        "relatives_intro": "De problemen van deze site die het meest op dit probleem lijken, "
        "gevonden door 'rulebook similar'. Een mogelijke voorganger heeft dezelfde stand (op een "
        "stuk of twee na) of dezelfde slotcombinatie en is eerder gepubliceerd; of het een "
        "voorganger is, beslist de jury.",
        "possible_anticipation": "mogelijke voorganger",
        "likeness": "gelijkenis",
        "relatives_contest": "Lijkt op",
        "more_opinions": "nog {count} op de pagina van het probleem",
        "publication": "Gepubliceerd",
        "collection": "Verzameling",
        "number": "Nr.",
        "entry": "Probleem",
        "grade": "Oordeel",
        "findings": "Fouten en opmerkingen",
        "points": "Punten",
        "claims": "Claims",
        "pieces": "Stukken",
        "diagram": "Stand",
        "all": "alle",
        "filter_grade": "Oordeel",
        "filter_variant": "Spelvorm",
        "filter_collection": "Verzameling",
        "filter_pieces": "Stukken",
        "search": "Zoek (componist, verzameling, titel)",
        "shown": "{shown} van {total} getoond",
        "organiser": "Organisator",
        "jury": "Jury",
        "date": "Datum",
        "stage": "Stadium",
        "stage_positions": "standen gepubliceerd",
        "stage_solutions": "oplossingen gepubliceerd",
        "stage_preliminary": "voorlopige uitslag",
        "stage_final": "einduitslag",
        "kind_contest": "wedstrijd",
        "kind_collection": "verzameling",
        "kind_examples": "voorbeelden",
        "kind": "Soort",
        "problems": "Problemen",
        "collections": "Verzamelingen en wedstrijden",
        "all_problems": "Alle problemen",
        "example_credit": "Voor deze site als voorbeeld gemaakt",
        "no_composer": "niet genoemd in de bron",
        "unchecked": "niet gecontroleerd",
        "cook": "Nevenoplossing",
        "cook_sentence": "Wit wint ook met {key}: een tweede oplossing, een fout (criterium C).",
        "cook_combination": "Wit wint ook met {key}; deze tweede oplossing is zelf een "
        "combinatie (de jury kan haar toelaten, art. 2C).",
        "dual": "Dualiteit",
        "dual_fail": "Na {after} wint ook {move}: een tweede winnende zet in de combinatie, "
        "een fout (criterium C).",
        "dual_remark": "Na {after} wint ook {move}: een tweede winnende zet in een variant, "
        "een opmerking (criterium C).",
        "try": "Schijnoplossing",
        "try_sentence": "{key} lijkt te winnen, maar zwart weerlegt met {refutation}.",
        "false": "Oplossing weerlegd",
        "false_sentence": "De gepubliceerde oplossing wint niet: zwart weerlegt met {refutation}.",
        "claim_cook": "nevenoplossing",
        "claim_anticipation": "voorganger",
        "claim_other": "claim",
        "report_note": "Per inzending het oordeel van het controleprogramma van deze site; de "
        "jury weegt het mee.",
        "skip_to_player": "Naar de oplossing stap voor stap",
        "unpublished": "volgt",
        "solutions_later": "De oplossing en het oordeel worden gepubliceerd wanneer de "
        "oplostijd van de wedstrijd voorbij is.",
        "anonymous": "anoniem tot de uitslag",
        "unplayable": "niet te beoordelen zoals geschreven",
        "unplayable_detail": "de oplossing kan niet worden nagespeeld zoals ze geschreven is: "
        "zet {move} is daar niet toegestaan{where}. Het controleprogramma beoordeelt de inzending "
        "zodra de tekst is verbeterd.",
        "unplayable_variation": " (in een variant)",
        "unplayable_short": "zet {move} is daar niet toegestaan{where}",
        "unplayable_other": "de oplossing kan niet worden nagespeeld zoals ze geschreven is "
        "({message}).",
        "rank": "Plaats",
        "award": "Onderscheiding",
        "award_prize": "prijs",
        "award_honourable-mention": "eervolle vermelding",
        "award_commendation": "lovende vermelding",
        "jury_report": "Oordeel van de jury",
        "unsound_zero": "0: niet correct",
        "allowed": "door de jury toegelaten (art. 2C)",
        "legend": "Wat de oordelen en criteria betekenen",
        "legend_intro": "Het controleprogramma van deze site toetst elke inzending aan de "
        "voorwaarden van de Problemistenwedstrijd",
        "legend_rules": "Fries Spel, aanvullende reglementen H, art. 2",
        "grade_meaning_correct": "elke voorwaarde is bewezen vervuld",
        "grade_meaning_correct with remarks": "correct, met een opmerking voor de jury (een "
        "tweede winnende zet in een variant)",
        "grade_meaning_incorrect": "een voorwaarde is bewezen niet vervuld, of de oplossing wint "
        "niet",
        "grade_meaning_undecided": "niets is fout bevonden, maar niet alles kon binnen de tijd "
        "worden bewezen",
        "criterion_A": "wit begint en wint",
        "criterion_B1": "de beginstand is zetmatig verklaarbaar",
        "criterion_B2": "geen materieel voordeel voor wit",
        "criterion_B3": "geen dammen op het bord",
        "criterion_B4": "geen zwarte schijven op slag",
        "criterion_C": "geen bijoplossing",
        "criterion_D": "alle schijven hebben een doel",
        "criterion_E": "geen verwisseling van zetten",
        "criterion_F": "de schijven worden naar de slotplaats gebracht",
        "criterion_G": "het eindspel of motief wint op één duidelijke manier",
    },
    "en": {
        "relatives": "Related problems",
        "relatives_intro": "The problems of this site most like this one, found by 'rulebook "
        "similar'. A possible anticipation has the same position (but for a piece or two) or "
        "the same final combination and was published earlier; whether it anticipates this "
        "problem is the jury's to say.",
        "possible_anticipation": "possible anticipation",
        "likeness": "likeness",
        "relatives_contest": "Like",
        "more_opinions": "{count} more on the problem's page",
        "publication": "Published",
        "collection": "Collection",
        "number": "No.",
        "entry": "Problem",
        "grade": "Grade",
        "findings": "Faults and remarks",
        "points": "Points",
        "claims": "Claims",
        "pieces": "Pieces",
        "diagram": "Position",
        "all": "all",
        "filter_grade": "Grade",
        "filter_variant": "Variant",
        "filter_collection": "Collection",
        "filter_pieces": "Pieces",
        "search": "Search (composer, collection, title)",
        "shown": "{shown} of {total} shown",
        "organiser": "Organiser",
        "jury": "Jury",
        "date": "Date",
        "stage": "Stage",
        "stage_positions": "positions published",
        "stage_solutions": "solutions published",
        "stage_preliminary": "preliminary award",
        "stage_final": "final award",
        "kind_contest": "contest",
        "kind_collection": "collection",
        "kind_examples": "examples",
        "kind": "Kind",
        "problems": "Problems",
        "collections": "Collections and contests",
        "all_problems": "All problems",
        "example_credit": "Composed for this site as an example",
        "no_composer": "not named in the source",
        "unchecked": "not checked",
        "cook": "Cook",
        "cook_sentence": "White also wins with {key}: a second solution, a fault (criterion C).",
        "cook_combination": "White also wins with {key}; this second solution is itself a "
        "combination (the jury may allow it, art. 2C).",
        "dual": "Dual",
        "dual_fail": "After {after}, {move} wins as well: a second winning move inside the "
        "combination, a fault (criterion C).",
        "dual_remark": "After {after}, {move} wins as well: a second winning move in a "
        "variation, a remark (criterion C).",
        "try": "Try",
        "try_sentence": "{key} looks like the solution, but Black refutes with {refutation}.",
        "false": "Solution refuted",
        "false_sentence": "The published solution does not win: Black refutes with {refutation}.",
        "claim_cook": "cook",
        "claim_anticipation": "anticipation",
        "claim_other": "claim",
        "report_note": "Each entry's grade by the site's checker; the jury weighs it.",
        "skip_to_player": "Skip to the solution step by step",
        "unpublished": "to follow",
        "solutions_later": "The solution and the verdict are published when the contest's "
        "solving period has ended.",
        "anonymous": "anonymous until the award",
        "unplayable": "could not be judged as written",
        "unplayable_detail": "the solution cannot be played as written: move {move} is not "
        "legal there{where}. The checker judges the entry once the text is mended.",
        "unplayable_variation": " (in a variation)",
        "unplayable_short": "move {move} is not legal there{where}",
        "unplayable_other": "the solution cannot be played as written ({message}).",
        "rank": "Rank",
        "award": "Award",
        "award_prize": "prize",
        "award_honourable-mention": "honourable mention",
        "award_commendation": "commendation",
        "jury_report": "The jury's verdict",
        "unsound_zero": "0: incorrect",
        "allowed": "allowed by the jury (art. 2C)",
        "legend": "What the grades and criteria mean",
        "legend_intro": "The site's checker tests every entry against the conditions of the "
        "Problemistenwedstrijd",
        "legend_rules": "Fries Spel, supplementary regulations H, art. 2",
        "grade_meaning_correct": "every condition is proved to hold",
        "grade_meaning_correct with remarks": "correct, with a remark for the jury (a second "
        "winning move in a variation)",
        "grade_meaning_incorrect": "a condition is proved not to hold, or the solution does not "
        "win",
        "grade_meaning_undecided": "nothing was found wrong, but not everything could be proved "
        "in the time",
        "criterion_A": "White to play and win",
        "criterion_B1": "the start position can arise in a game",
        "criterion_B2": "no material advantage for White",
        "criterion_B3": "no kings on the board",
        "criterion_B4": "no black man capturable",
        "criterion_C": "no second solution",
        "criterion_D": "every man has a purpose",
        "criterion_E": "no transposition of moves",
        "criterion_F": "the men are brought to where the problem ends",
        "criterion_G": "the endgame or motif wins in one clear way",
    },
    "fy": {
        "relatives": "Besibbe problemen",
        "relatives_intro": "De problemen fan dizze side dy't it meast op dit probleem lykje, "
        "fûn troch 'rulebook similar'. In mooglike foargonger hat deselde stân (op in stik of "
        "twa nei) of deselde slotkombinaasje en is earder publisearre; oft it in foargonger is, "
        "beslút de sjuery.",
        "possible_anticipation": "mooglike foargonger",
        "likeness": "oerienkomst",
        "relatives_contest": "Liket op",
        "more_opinions": "noch {count} op de side fan it probleem",
        "publication": "Publisearre",
        "collection": "Samling",
        "number": "Nr.",
        "entry": "Probleem",
        "grade": "Oardiel",
        "findings": "Flaters en opmerkings",
        "points": "Punten",
        "claims": "Claims",
        "pieces": "Stikken",
        "diagram": "Stân",
        "all": "alle",
        "filter_grade": "Oardiel",
        "filter_variant": "Spulfoarm",
        "filter_collection": "Samling",
        "filter_pieces": "Stikken",
        "search": "Sykje (komponist, samling, titel)",
        "shown": "{shown} fan {total} te sjen",
        "organiser": "Organisator",
        "jury": "Sjuery",
        "date": "Datum",
        "stage": "Stadium",
        "stage_positions": "stannen publisearre",
        "stage_solutions": "oplossingen publisearre",
        "stage_preliminary": "foarlopige útslach",
        "stage_final": "einútslach",
        "kind_contest": "wedstriid",
        "kind_collection": "samling",
        "kind_examples": "foarbylden",
        "kind": "Soarte",
        "problems": "Problemen",
        "collections": "Samlingen en wedstriden",
        "all_problems": "Alle problemen",
        "example_credit": "Foar dizze side as foarbyld makke",
        "no_composer": "net neamd yn de boarne",
        "unchecked": "net kontrolearre",
        "cook": "Byoplossing",
        "cook_sentence": "Wyt wint ek mei {key}: in twadde oplossing, in flater (kritearium C).",
        "cook_combination": "Wyt wint ek mei {key}; dizze twadde oplossing is sels in "
        "kombinaasje (de sjuery kin har tastean, art. 2C).",
        "dual": "Dualiteit",
        "dual_fail": "Nei {after} wint ek {move}: in twadde winnende set yn de kombinaasje, in "
        "flater (kritearium C).",
        "dual_remark": "Nei {after} wint ek {move}: in twadde winnende set yn in fariant, in "
        "opmerking (kritearium C).",
        "try": "Skynoplossing",
        "try_sentence": "{key} liket te winnen, mar swart wjerleit mei {refutation}.",
        "false": "Oplossing wjerlein",
        "false_sentence": "De publisearre oplossing wint net: swart wjerleit mei {refutation}.",
        "claim_cook": "byoplossing",
        "claim_anticipation": "foargonger",
        "claim_other": "claim",
        "report_note": "Per ynstjoering it oardiel fan it kontrôleprogramma fan dizze side; "
        "de sjuery weaget it mei.",
        "skip_to_player": "Nei de oplossing stap foar stap",
        "unpublished": "folget",
        "solutions_later": "De oplossing en it oardiel wurde publisearre as de oplostiid fan "
        "de wedstriid foarby is.",
        "anonymous": "anonym oant de útslach",
        "unplayable": "net te beoardieljen sa't it skreaun is",
        "unplayable_detail": "de oplossing kin net neispile wurde sa't se skreaun is: set {move} "
        "is dêr net tastien{where}. It kontrôleprogramma beoardielet de ynstjoering sa gau't de "
        "tekst ferbettere is.",
        "unplayable_variation": " (yn in fariant)",
        "unplayable_short": "set {move} is dêr net tastien{where}",
        "unplayable_other": "de oplossing kin net neispile wurde sa't se skreaun is ({message}).",
        "rank": "Plak",
        "award": "Ûnderskieding",
        "award_prize": "priis",
        "award_honourable-mention": "earfolle fermelding",
        "award_commendation": "lovende fermelding",
        "jury_report": "It oardiel fan de sjuery",
        "unsound_zero": "0: net korrekt",
        "allowed": "troch de sjuery tastien (kêst 2C)",
        "legend": "Wat de oardielen en kritearia betsjutte",
        "legend_intro": "It kontrôleprogramma fan dizze side toetst elke ynstjoering oan de "
        "betingsten fan de Problemistenwedstrijd",
        "legend_rules": "Fries Spel, oanfoljende regleminten H, kêst 2",
        "grade_meaning_correct": "elke betingst is bewiisd foldien",
        "grade_meaning_correct with remarks": "korrekt, mei in opmerking foar de sjuery (in "
        "twadde winnende set yn in fariant)",
        "grade_meaning_incorrect": "in betingst is bewiisd net foldien, of de oplossing wint net",
        "grade_meaning_undecided": "der is neat ferkeard fûn, mar net alles koe binnen de tiid "
        "bewiisd wurde",
        "criterion_A": "wyt begjint en wint",
        "criterion_B1": "de begjinstân is troch setten te ferklearjen",
        "criterion_B2": "gjin materieel foardiel foar wyt",
        "criterion_B3": "gjin dammen op it boerd",
        "criterion_B4": "gjin swarte skiven op slach",
        "criterion_C": "gjin byoplossing",
        "criterion_D": "alle skiven hawwe in doel",
        "criterion_E": "gjin ferwikseling fan setten",
        "criterion_F": "de skiven wurde nei it slotplak brocht",
        "criterion_G": "it einspul of motyf wint op ien dúdlike manier",
    },
}
"""The collection pages' words (merged into :data:`LABELS`)."""
for _lang, _words in EXTRA_LABELS.items():
    LABELS[_lang].update(_words)


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
                            f"not a JSON line ({error.msg}); refresh it with '{REFRESH}'",
                            source=str(path),
                            line=number,
                        ) from None
                    try:
                        judgement = judgement_from_json(record, "the stored verdict")
                    except ValueError as error:
                        raise SiteError(
                            f"{error}: not a verdict 'rulebook check --json' writes; refresh it "
                            f"with '{REFRESH}'",
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
        raise SiteError(f"no collection {slug!r} in problems/ (there are: {known})", source=where)

    def entry(self, collection: str, slug: str, *, where: str) -> Entry:
        found = self.collection(collection, where=where).entry(slug)
        if found is None:
            raise SiteError(f"no problem {slug!r} in collection {collection!r}", source=where)
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
                f"entry {entry.name} of {folder}/ has no stored verdict for its current text: "
                f"run '{UPDATE.format(folder=folder)}'",
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
                f"expected 'key: value', got {line.strip()!r}", source=where, line=number
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
        raise SiteError(
            "a draughts-problem block needs 'collection: <folder>' and 'entry: <name>'",
            source=where,
        )
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
        value = STIPULATIONS.get(stipulation.strip().lower(), {}).get(lang, stipulation)
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
        raise SiteError(
            f"entry {entry.name!r} is incorrect by the checker and scores 0 "
            "(unsound_scores_zero), yet has a rank or an award: set 'allowed = true' in its "
            "[[awards]] if the jury allows it (art. 2C), or remove them",
            source=where,
        )
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
