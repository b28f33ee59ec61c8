"""Problem and contest pages show each problem's relatives, and possible anticipations.

A small problems folder: an old collection with two problems, and a contest (positions only)
whose first entry is the first old problem shifted two columns, whose second is new. The
pages are rendered and read as HTML.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulebook_build.similar.search import POSSIBLE_ANTICIPATION
from rulebook_build.similar.words import Change, Reason, describe
from rulebook_build.site.collections import Entry
from rulebook_build.site.problems import (
    ProblemSite,
    relatives,
    render_collection,
    render_problem,
)
from rulebook_build.site.relatives import year_of

OLD = """[Event "Oud 1"]
[SetUp "1"]
[FEN "W:W29,30,33,39,40,42,49:B7,8,9,10,18,19,38"]
[Composer "M. van Dijk"]
[Source "Het Parol, 18-9-1971"]

1. 39-34 38x47 2. 29-23 47x44 3. 23x5 44x6 4. 5x1 *

[Event "Oud 2"]
[SetUp "1"]
[FEN "W:W46,47:B5"]
[Composer "Iemand"]
[Source "Het Blad, 1980"]

1. 46-41 *
"""

NEW = """[Event "Nieuw 1"]
[SetUp "1"]
[FEN "W:W28,29,32,38,39,41,48:B6,7,8,9,17,18,37"]
[Composer "Inzender Een"]

1. 38-33 *

[Event "Nieuw 2"]
[SetUp "1"]
[FEN "W:W31,36,37,50:B15,20,24,25"]
[Composer "Inzender Twee"]

1. 37-32 *
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> ProblemSite:
    root = tmp_path_factory.mktemp("relatives")
    old = root / "oud"
    old.mkdir()
    (old / "collection.toml").write_text(
        'title = "Oude problemen"\nkind = "collection"\nentry = "number"\n',
        encoding="utf-8",
    )
    (old / "oud.pdn").write_text(OLD, encoding="utf-8")
    new = root / "wedstrijd"
    new.mkdir()
    (new / "collection.toml").write_text(
        'title = "Wedstrijd"\nkind = "contest"\nstage = "positions"\ndate = "2026"\n'
        'entry = "number"\n',
        encoding="utf-8",
    )
    (new / "inzendingen.pdn").write_text(NEW, encoding="utf-8")
    return ProblemSite(root)


def entry(site: ProblemSite, collection: str, number: int) -> Entry:
    found = site.collection(collection, where="test")
    return found.entries[number - 1]


class _Text(HTMLParser):
    """The text of an element with a class, and the links in it."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted, self.depth, self.text, self.links = wanted, 0, "", []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if self.depth or self.wanted in classes:
            self.depth += 1
            if tag == "a":
                self.links.append(dict(attrs).get("href"))

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text += data


def read(html: str, wanted: str) -> _Text:
    parser = _Text(wanted)
    parser.feed(html)
    return parser


def test_a_shifted_copy_names_the_earlier_original_a_possible_anticipation(
    site: ProblemSite,
) -> None:
    copy, original = entry(site, "wedstrijd", 1), entry(site, "oud", 1)
    (first, *_rest) = relatives(copy, site, "nl", "../../../")
    assert first["href"] == "../../../problemen/oud/01/"
    assert first["anticipation"] is True
    assert first["reason"] == "dezelfde stand, twee kolommen naar rechts verschoven"
    assert first["likeness"] == "100%"
    assert (first["name"], first["title"]) == ("Oude problemen, 1", "")
    assert first["by"] == "M. van Dijk, Het Parol, 18-9-1971"
    # the original is older: the copy is its relative, not its anticipation
    back = [
        r for r in relatives(original, site, "en", "") if "problemen/wedstrijd/" in str(r["href"])
    ]
    assert back and back[0]["anticipation"] is False
    assert back[0]["reason"] == "same position, shifted two columns left"


def test_a_new_problem_has_no_possible_anticipation(site: ProblemSite) -> None:
    fresh = entry(site, "wedstrijd", 2)
    found = site.relatives.of(fresh)
    assert all(r.match.score < POSSIBLE_ANTICIPATION and not r.anticipation for r in found)
    assert relatives(fresh, site, "nl", "", least=POSSIBLE_ANTICIPATION) == []


def test_the_contest_page_shows_the_match_beside_the_entry(site: ProblemSite) -> None:
    html = render_collection(
        "collection: wedstrijd", lang="nl", where="test", site=site, root="../../"
    )
    cells = read(html, "rb-cell-relatives")
    assert cells.links == ["../../problemen/oud/01/"]
    assert "mogelijke voorganger" in cells.text
    assert "twee kolommen naar rechts verschoven" in cells.text


def test_the_problem_page_lists_its_relatives_in_the_readers_language(
    site: ProblemSite,
) -> None:
    html = render_problem(
        "collection: wedstrijd\nentry: 01",
        lang="fy",
        where="test",
        site=site,
        diagram=lambda block, lines: "",
        root="../../../",
    )
    listed = read(html, "rb-relatives")
    assert listed.links[0] == "../../../fy/problemen/oud/01/"
    assert "mooglike foargonger" in listed.text
    assert "deselde stân, twa kolommen nei rjochts ferskood" in listed.text


def test_an_anticipation_needs_a_year_on_both_sides(
    tmp_path: Path, site: ProblemSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert year_of(entry(site, "oud", 1)) == 1971  # from the publication tag
    assert year_of(entry(site, "wedstrijd", 1)) == 2026  # from the contest's date
    # the same folder read again, with no year anywhere: the same match, no anticipation
    monkeypatch.setattr("rulebook_build.site.relatives.year_of", lambda entry: None)
    again = ProblemSite(site.folder)
    (first, *_rest) = again.relatives.of(entry(again, "wedstrijd", 1))
    assert first.match.score == 1.0 and first.anticipation is False


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        (
            "en",
            "same position, colours reversed, mirrored left to right and shifted one row up; "
            "one black man fewer, two white kings more",
        ),
        (
            "nl",
            "dezelfde stand, kleuren omgekeerd, links-rechts gespiegeld en één rij omhoog "
            "verschoven; één zwarte schijf minder, twee witte dammen meer",
        ),
        (
            "fy",
            "deselde stân, kleuren omkeard, lofts-rjochts spegele en ien rige omheech "
            "ferskood; ien swarte skiif minder, twa wite dammen mear",
        ),
    ],
)
def test_a_reason_in_each_language(lang: str, text: str) -> None:
    reason = Reason(
        "position",
        True,
        True,
        -1,
        0,
        changes=(Change(1, "black", "man", False), Change(2, "white", "king", True)),
    )
    assert describe(reason, lang) == text


def test_a_combination_reason_in_each_language() -> None:
    reason = Reason(
        "combination",
        False,
        False,
        0,
        1,
        common=2,
        total=3,
        moves=("27-21", "16x27"),
        pieces=4,
        small=True,
    )
    assert describe(reason, "en") == (
        "the first 2 of the final combination's 3 moves, shifted one column right: 27-21 16x27, "
        "where the line ends (a pattern of 4 pieces)"
    )
    assert describe(reason, "nl") == (
        "de eerste 2 van de 3 zetten van de slotcombinatie, één kolom naar rechts verschoven: "
        "27-21 16x27, waar de lijn eindigt (een patroon van 4 stukken)"
    )


def test_relatives_are_found_once_per_build(
    site: ProblemSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    site.relatives.of(entry(site, "oud", 1))
    calls: list[int] = []
    monkeypatch.setattr(site.relatives, "_search", lambda: calls.append(1) or {})
    site.relatives.of(entry(site, "oud", 2))
    assert calls == []
