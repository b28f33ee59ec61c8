"""The "check your problem" page in Debian's Chromium: the project's checker running in the
browser (Pyodide, from the site itself) must give what ``rulebook check --json`` gives.

Needs ``node_modules/pyodide`` (``npm ci``, which ``scripts/test.sh`` runs) and Chromium.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.checkpage import pdn, pyodide_folder
from rulebook_build.cli.check import _judge, _Task
from rulebook_build.notation.pdn import read_pdn, read_pdn_file, write_game
from rulebook_build.notation.replay import replay_problem
from rulebook_build.rules import find_variant
from rulebook_build.site.problems import ProblemSite
from tests.datafiles import PWCP

from .conftest import CHROMIUM, REPOSITORY, Site
from .test_accessibility import AXE, at_both_widths
from .test_browser import Console, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

# example frisian-01 of the site: 3 men against 3, decided in a moment with or without tables
FEN = "W:W26,31,36:B6,17,39"
WHITE, BLACK = (26, 31, 36), (6, 17, 39)
SOLUTION = "1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 4. 34-29 17-22 5. 26-21 22-27 6. 21x32"


@pytest.fixture(scope="module")
def server(real_site: Site) -> Iterator[str]:
    if pyodide_folder(REPOSITORY) is None:
        pytest.fail("node_modules/pyodide is missing: run 'npm ci' (scripts/test.sh does)")
    yield from serve(real_site)


def open_checker(
    browser: Any, server: str, fragment: str = "", width: int = 1100, *, axe: bool = False
) -> Any:
    """The English check page; ``axe``: with the page's Content-Security-Policy bypassed, so
    that axe-core can be injected (``test_accessibility.violations``)."""
    context = browser.new_context(viewport={"width": width, "height": 1000}, bypass_csp=axe)
    page = context.new_page()
    page.console = Console(page)  # type: ignore[attr-defined]
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.requests = requests  # type: ignore[attr-defined]
    page.goto(f"{server}/en/controleren/{fragment}")
    page.wait_for_function("() => !document.querySelector('.rb-check').disabled", timeout=120_000)
    return page


def progress_lines(page: Any) -> list[str]:
    """Every text the progress line shows from now on, in order (a list that grows)."""
    seen: list[str] = []
    page.expose_function("rbSeen", lambda text: seen.append(text))
    page.evaluate(
        "() => new MutationObserver(() => window.rbSeen("
        "document.querySelector('.rb-progress').textContent)).observe("
        "document.querySelector('.rb-progress'), "
        "{subtree: true, childList: true, characterData: true})"
    )
    return seen


def wait_for_report(page: Any, *, timeout: int) -> None:
    """Until a check ends: its report carries the grade."""
    page.wait_for_function(
        "() => document.querySelector('.rb-check-report').hasAttribute('data-grade')",
        timeout=timeout,
    )


def command_line(problem: dict[str, Any], seconds: float) -> dict[str, Any]:
    """``rulebook check --json --deterministic`` (tables and compiled search as installed) on
    the PDN the page writes of the same problem."""
    games, errors = read_pdn(json.loads(pdn(json.dumps(problem)))["pdn"], source="<problem>")
    assert not errors
    read = replay_problem(games[0], find_variant(problem["variant"]))
    task = _Task(read, seconds, True, True, True, by_work=True)
    return _judge(task).as_json()


def same_judgement(page_record: dict[str, Any], expected: dict[str, Any]) -> None:
    """The page's JSON is the command line's, but for the seconds (and the page's report)."""
    shown = {k: v for k, v in page_record.items() if k not in ("seconds", "report")}
    assert shown == {k: v for k, v in expected.items() if k != "seconds"}


def test_set_up_type_check_and_agree_with_the_command_line(browser: Any, server: str) -> None:
    page = open_checker(browser, server)
    page.select_option(".rb-variant", "frisian")
    for square in WHITE:  # one click: a white man
        page.click(f'.rb-sq[data-square="{square}"]')
    for square in BLACK[:-1]:  # two clicks: a black man
        page.click(f'.rb-sq[data-square="{square}"]')
        page.click(f'.rb-sq[data-square="{square}"]')
    # the last one by keyboard: from square 1, Down 7 rows and Right 3 squares is 39
    page.focus('.rb-sq[data-square="1"]')
    for key in ["ArrowDown"] * 7 + ["ArrowRight"] * 3:
        page.keyboard.press(key)
    assert page.evaluate("() => document.activeElement.dataset.square") == "39"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    label = page.get_attribute('.rb-sq[data-square="39"]', "aria-label")
    assert label == "Square 39: black man"
    page.click(".rb-solution-input")
    page.keyboard.type(SOLUTION)
    page.wait_for_function(
        "() => document.querySelectorAll('.rb-moves-view .rb-typed-move').length === 11"
    )
    assert page.locator(".rb-moves-view .rb-illegal").count() == 0
    # the site's own player shows the solution at once
    page.wait_for_selector(".rb-checker-player .solution-player.rb-js")
    page.fill(".rb-seconds", "20")
    page.click(".rb-check")
    wait_for_report(page, timeout=120_000)
    record = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.lastRecord")
    problem = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.problem()")
    expected = command_line(json.loads(problem), 20.0)
    same_judgement(record, expected)
    report = page.locator(".rb-check-report")
    assert report.get_attribute("data-grade") == expected["grade"] == "correct"
    assert report.get_attribute("data-verdict") == expected["verdict"]
    assert record["winning_keys"] == expected["winning_keys"]
    shown = {
        row.get_attribute("data-criterion"): row.get_attribute("data-status")
        for row in page.locator(".rb-check-report tbody tr").all()
    }
    assert shown == {name: c["status"] for name, c in expected["criteria"].items()}
    assert page.console.problems == []  # type: ignore[attr-defined]
    # nothing was asked of another host
    assert all(url.startswith(server) for url in page.requests), page.requests  # type: ignore[attr-defined]
    page.context.close()


def test_the_worker_is_started_by_the_page_as_it_is_read_and_adopted(
    browser: Any, server: str
) -> None:
    """The page's inline script (checkpage/assets/early-start.js) starts the worker before the
    page's scripts come, under the page's Content-Security-Policy (allowed by its hash), and
    checker.js takes it over with what it said meanwhile (its "ready" among them: the Check
    button was enabled by it)."""
    page = open_checker(browser, server)
    checker = "document.querySelector('.rb-checker')"
    assert page.evaluate(f"{checker}.rulebookChecker.startedEarly") is True
    assert page.evaluate(f"{checker}.rulebookEarlyWorker") is None  # adopted once
    assert page.requests.count(f"{server}/assets/rulebook/checker-worker.js") == 1
    assert not [p for p in page.console.problems if "Content Security" in p], page.console.problems
    page.context.close()


def test_a_pasted_problem_with_a_cook_is_reported_incorrect(browser: Any, server: str) -> None:
    site = ProblemSite(REPOSITORY / "problems")
    entry = site.entry("cat-d1", "12", where="test")  # S.M. van Eijk: three winning keys
    stored = site.record(entry)
    assert stored is not None and stored.cooks
    page = open_checker(browser, server)
    page.fill(".rb-paste", write_game(entry.game))
    page.click(".rb-load")
    page.wait_for_function("() => document.querySelector('.rb-solution-input').value !== ''")
    page.fill(".rb-seconds", "60")
    page.click(".rb-check")
    wait_for_report(page, timeout=150_000)
    assert page.locator(".rb-check-report").get_attribute("data-grade") == "incorrect"
    c_row = page.locator('.rb-check-report tr[data-criterion="C"]')
    assert c_row.get_attribute("data-status") == "fail"
    assert "cook" in c_row.inner_text()
    record = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.lastRecord")
    assert {cook["key"] for cook in record["cooks"]} >= {c.key for c in stored.cooks}
    page.context.close()


HOSTILE = """[Event "<script>window.pwned = 'event'</script>"]
[Title "<img src=x onerror=\\"window.pwned = 'title'\\">"]
[Composer "<a href=\\"javascript:window.pwned='a'\\">me</a>"]
[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

{<script>window.pwned = 'comment'</script>} 1. 31-27 {<b onmouseover=alert(1)>x</b>} 17x37 *
"""


def test_a_link_with_hostile_text_runs_nothing_and_shows_it_literally(
    browser: Any, server: str
) -> None:
    fragment = "#pdn=" + urllib.parse.quote(HOSTILE) + "&run=1"
    page = open_checker(browser, server, fragment, width=390)
    wait_for_report(page, timeout=120_000)
    assert page.evaluate("() => window.pwned === undefined")
    assert (
        page.input_value('.rb-tag[data-tag="Title"]')
        == "<img src=x onerror=\"window.pwned = 'title'\">"
    )
    assert page.input_value('.rb-tag[data-tag="Composer"]').startswith("<a href=")
    assert (
        page.evaluate("() => document.querySelectorAll('article img[src=\"x\"], article b').length")
        == 0
    )
    # the text field the solution went to holds it as text
    assert page.input_value(".rb-solution-input").startswith("1. 31-27")
    # usable at phone width: nothing wider than the screen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.console.problems == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_broken_link_gets_the_located_message(browser: Any, server: str) -> None:
    broken = '[SetUp "1"]\n[FEN "W:W31:B18"]\n\n1. 31-26 zz\n'
    page = open_checker(browser, server, "#pdn=" + urllib.parse.quote(broken))
    error = page.locator(".rb-load-error")
    error.wait_for(state="visible")
    assert "line 4, column 10: unexpected 'zz'" in error.inner_text()
    page.context.close()


def test_the_page_without_pyodide_says_what_is_missing(tmp_path: Path) -> None:
    from rulebook_build.checkpage import render_checker
    from rulebook_build.site.problems import LABELS

    html = render_checker(
        lang="en", root="../", available=False, address="", home="../", grades=LABELS["en"]
    )
    assert "Pyodide is missing" in html and "npm ci" in html
    assert "rb-checker-app" not in html


def test_a_long_check_can_be_cancelled_and_the_page_stays_usable(browser: Any, server: str) -> None:
    # PWCP-2 A1 (10 pieces) given ten minutes: cancel it after a moment
    site = ProblemSite(REPOSITORY / "problems")
    text = write_game(site.entry("pwcp-2", "a1", where="test").game)
    fragment = "#pdn=" + urllib.parse.quote(text) + "&run=1&seconds=600"
    page = open_checker(browser, server, fragment)
    page.wait_for_function(
        "() => /nodes/.test(document.querySelector('.rb-progress').textContent)", timeout=60_000
    )
    assert page.locator(".rb-cancel").is_enabled()
    page.click(".rb-cancel")
    assert page.locator(".rb-progress").inner_text() == "Cancelled."
    assert not page.locator(".rb-check-report").get_attribute("data-grade")
    # a new worker loads; the page checks again
    page.wait_for_function("() => !document.querySelector('.rb-check').disabled", timeout=120_000)
    page.click(".rb-clear")
    page.select_option(".rb-variant", "frisian")
    page.fill(".rb-paste", FEN)
    page.click(".rb-load")
    # loading sets the board (and clears the solution): type the solution after it
    page.wait_for_function(
        "() => document.querySelector('.rb-sq[data-square=\"26\"]').dataset.piece === 'w'"
    )
    page.fill(".rb-solution-input", SOLUTION)
    page.wait_for_function(
        "() => document.querySelectorAll('.rb-moves-view .rb-typed-move').length === 11"
    )
    page.click(".rb-check")
    page.wait_for_function(
        "() => document.querySelector('.rb-check-report').dataset.grade === 'correct'",
        timeout=120_000,
    )
    # the worker ended by the cancel had table pages on the way: those requests were aborted
    problems = page.console.problems  # type: ignore[attr-defined]
    assert [p for p in problems if not re.search(r"failed: .*/tables/.*\.(blocks|pages)$", p)] == []
    page.context.close()


def test_the_hostile_corpus_in_a_link_runs_nothing_and_shows_as_text(
    browser: Any, server: str
) -> None:
    """Every payload of ``tests/data/hostile-input.txt`` in a ``#pdn=`` link: in the tags the
    page keeps (Title and Composer in their fields, as written; the others for the PDN it
    writes) and in the comments (which it drops)."""
    from .test_hostile_corpus import CORPUS, Watch, deal, pdn_value

    kept = ("Event", "Site", "Date", "Composer", "Title", "Source", "Stipulation")
    tags = {tag: deal(CORPUS, index % 4) for index, tag in enumerate(kept)}
    comment = " ".join(t for t in " ".join(CORPUS).split(" ") if "}" not in t)
    text = "".join(f'[{tag} "{pdn_value(value)}"]\n' for tag, value in tags.items())
    text += f'[SetUp "1"]\n[FEN "{FEN}"]\n[GameType "40"]\n\n{{{comment}}} {SOLUTION} *\n'
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    watch = Watch(page, server)
    url = f"{server}/controleren/#pdn=" + urllib.parse.quote(text) + "&run=1"
    page.goto(url)
    wait_for_report(page, timeout=120_000)
    watch.assert_nothing_happened(url)
    for tag in ("Title", "Composer"):
        value = tags[tag]
        assert page.input_value(f'.rb-tag[data-tag="{tag}"]') == value, tag
    assert page.locator(".rb-check-report").get_attribute("data-grade") == "correct"
    context.close()


COUNT = re.compile(r" s, ([0-9.]+) knopen")
SAMPLE = """[Event "Sacrifice on 1, shot to 13"]
[SetUp "1"]
[FEN "W:W6,11,18,22,28:B17,32,36,37,43"]
[GameType "20"]

1. 6-1 32x12 2. 1x31 36x18 3. 11x13 *
"""


STORED = """async ([action, digest]) => {
    // the checker's own IndexedDB (table-fetch.js): each span under digest|name|start|end
    const db = await new Promise((resolve, reject) => {
        const asked = indexedDB.open("rulebook-tables", 1);
        asked.onupgradeneeded = () => asked.result.createObjectStore("spans");
        asked.onsuccess = () => resolve(asked.result);
        asked.onerror = () => reject(asked.error);
    });
    const store = db.transaction("spans", "readwrite").objectStore("spans");
    const done = (request) => new Promise((resolve) => {
        request.onsuccess = () => resolve(request.result);
    });
    if (action === "plant") {
        await done(store.put(new Uint8Array(1000).buffer, digest + "|m1k0-m0k1.pages|0|1000"));
    }
    const keys = await done(store.getAllKeys());
    if (action === "tamper") {  // the bytes of every span of one class turned, lengths kept
        // the spans the search and the scouts asked (a prefetch asks only from a file's start)
        const asked = keys.map(String).filter((k) => k.includes(".blocks|") && !k.includes("|0|"));
        // the class with the most spans: the judgement reads some of them (the scouts before
        // Python fetch blocks it may never read)
        const count = {};
        asked.forEach((k) => { count[k.split("|")[1]] = (count[k.split("|")[1]] || 0) + 1; });
        const most = Object.keys(count).sort((x, y) => count[y] - count[x])[0];
        const turned = asked.filter((k) => k.split("|")[1] === most);
        for (const key of turned) {
            const bytes = new Uint8Array(await done(store.get(key)));
            bytes.forEach((b, i) => { bytes[i] = b ^ 0x5a; });
            await done(store.put(bytes.buffer, key));
        }
        db.close();
        return turned;
    }
    db.close();
    return keys.map(String);
}"""


def digest_of(page: Any) -> str:
    strings = json.loads(page.locator(".rb-checker-strings").text_content())
    return str(strings["tables"]["international"]["digest"])


def test_kept_tables_serve_the_next_visit_and_a_tampered_one_is_refused_and_forgotten(
    browser: Any, server: str
) -> None:
    """The sample of the composers' guide from a link, at the page's default limit: the
    compiled search in WebAssembly and the site's tables, fetched a page at a time, give the
    command line's JSON (counted in work on both sides), and the progress line says how much of
    the tables came; what came is kept (the page says how much); the page opened again judges
    with nothing fetched of the tables and gives the same JSON; kept bytes turned by someone are
    checked as any block is, refused (the check does without them, and says so) and then all
    forgotten.  (One test: each of its judgements builds on the browser storage the one before
    it left.)"""
    from .test_browser import _QuietHandler

    _QuietHandler.ranges.clear()
    link = "#pdn=" + urllib.parse.quote(SAMPLE) + "&run=1"
    page = open_checker(browser, server, link)
    seen = progress_lines(page)
    wait_for_report(page, timeout=120_000)
    first = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.lastRecord")
    problem = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.problem()")
    assert page.input_value(".rb-seconds") == "20"
    assert first["grade"] == "correct" and first["report"]["compiled"] is True
    expected = command_line(json.loads(problem), 20.0)
    same_judgement(first, expected)
    # the tables came in pages, not whole: far less than the site holds
    assert first["report"]["downloaded"] > 0
    assert _QuietHandler.ranges and all(
        path.endswith((".blocks", ".pages")) for path, _ in _QuietHandler.ranges
    )
    assert (
        page.locator(".rb-command").inner_text().startswith("rulebook check --json --deterministic")
    )
    assert page.console.problems == []  # type: ignore[attr-defined]
    assert first["report"]["prefetched"]["requests"] > 0
    # the scouts ran the judgement's first searches and fetched the pages they wanted, many at
    # a time: the judgement's own requests, one after another, are fewer than theirs
    ahead = first["report"]["prefetched"]
    assert ahead["scouted"] + ahead["early"]["requests"] > 0 and ahead["scout_rounds"] > 0
    assert first["report"]["requests"] < ahead["scouted"] + ahead["early"]["requests"], (
        first["report"]["requests"],
        ahead,
    )
    # from the link, scouts ran before Python had loaded (early-scouts.js), in the worker's first
    # seconds, and fetched pages
    early = ahead["early"]
    assert early["wanted"] > 0 and early["requests"] > 0, early
    # this server speaks HTTP/1.1, where the browser asks six requests at a time: the scouts
    # asked wide ranges, before Python and after (table-fetch.js scoutingFor)
    assert ahead["scout_gap"] == early["gap"] == 65536, ahead
    assert 0 < early["began"] <= early["ended"], early
    # Chromium suspends WebAssembly on a promise (JSPI): the judgement waited for its scouts
    assert first["report"]["scouts_waited"] is True
    fetching = [t for t in seen if re.search(r"Fetching endgame tables[^:]*: \d+\.\d MB", t)]
    assert fetching, seen[-5:]
    assert any(re.search(r"Fetching endgame tables: \d+\.\d of \d+\.\d MB", t) for t in seen)
    page.wait_for_function(
        "() => /keeps [1-9][0-9.]* MB/.test(document.querySelector('.rb-kept-size').textContent)"
    )
    # the next visit: the tables from the browser's storage, none from the host
    _QuietHandler.ranges.clear()
    page.reload()
    wait_for_report(page, timeout=120_000)
    again = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.lastRecord")
    same_judgement(again, expected)
    assert again["report"]["downloaded"] == 0 and again["report"]["requests"] == 0
    # judged before: no scouts, before Python or after
    assert again["report"]["prefetched"]["scout_rounds"] == 0
    assert again["report"]["prefetched"]["early"]["wanted"] == 0
    assert not [p for p, _ in _QuietHandler.ranges if p.endswith((".blocks", ".pages"))]
    # a kept span tampered with (the same check asks it again): refused by its checksums,
    # and then nothing of the set is kept
    turned = page.evaluate(STORED, ["tamper", digest_of(page)])
    tampered_classes = {key.split("|")[1].removesuffix(".blocks") for key in turned}
    page.reload()
    wait_for_report(page, timeout=120_000)
    tampered = page.evaluate(
        "() => document.querySelector('.rb-checker').rulebookChecker.lastRecord"
    )
    # a turned block (or page's sums) the scouts fetched is refused and asked of the host
    # again; a turned group of pages the search asked is refused, and its class left out (one
    # class turned)
    faults = tampered["report"]["table_faults"]
    assert faults or tampered["report"]["kept_refused"] > 0
    assert all(f["kind"] == "checksum" and f["class"] in tampered_classes for f in faults)
    assert tampered["grade"] in ("correct", "undecided")  # never a grade from a bad block
    page.wait_for_function(
        "() => /keeps none/.test(document.querySelector('.rb-kept-size').textContent)"
    )
    assert page.evaluate(STORED, ["count", ""]) == []
    page.context.close()


def test_the_forget_button_empties_what_is_kept_and_an_old_table_set_goes_on_opening(
    browser: Any, server: str
) -> None:
    """Spans kept under another manifest digest are deleted when the checker starts; the
    page states the size of what is kept for the current one, and its button forgets it."""
    page = open_checker(browser, server)
    digest = digest_of(page)
    page.evaluate(STORED, ["plant", "0" * 64])
    page.evaluate(STORED, ["plant", digest])
    page.reload()
    page.wait_for_function("() => !document.querySelector('.rb-check').disabled")
    page.wait_for_function(
        "() => /keeps 0.0 MB/.test(document.querySelector('.rb-kept-size').textContent)"
    )
    assert page.evaluate(STORED, ["count", ""]) == [f"{digest}|m1k0-m0k1.pages|0|1000"]
    page.click(".rb-forget")
    page.wait_for_function(
        "() => /keeps none/.test(document.querySelector('.rb-kept-size').textContent)"
    )
    assert page.evaluate(STORED, ["count", ""]) == []
    assert page.locator(".rb-forget").is_disabled()
    page.context.close()


def test_an_empty_board_is_not_checked(browser: Any, server: str) -> None:
    page = open_checker(browser, server)
    page.click(".rb-check")
    assert "Put pieces on the board first" in page.locator(".rb-progress").inner_text()
    assert not page.locator(".rb-check-report").get_attribute("data-grade")
    page.context.close()


def test_the_dutch_page_speaks_dutch_and_names_a_wrong_move_by_its_number(
    browser: Any, server: str
) -> None:
    """The progress lines and the report in Dutch, and an illegal move of a pasted solution
    named by its move number."""
    wrong = SAMPLE.replace("3. 11x13", "3. 11-7")
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/controleren/#pdn=" + urllib.parse.quote(wrong))
    error = page.locator(".rb-load-error")
    error.wait_for(state="visible", timeout=120_000)
    assert error.inner_text().startswith("zet 3 (6:"), error.inner_text()
    seen = progress_lines(page)
    page.fill(".rb-paste", SAMPLE)
    page.click(".rb-load")
    page.wait_for_function("() => document.querySelector('.rb-solution-input').value !== ''")
    page.click(".rb-check")
    wait_for_report(page, timeout=120_000)
    assert page.locator(".rb-check-grade").inner_text().strip() == "correct"
    running = [text for text in seen if text.startswith("Bezig")]
    assert running and any("sleutelzet" in text for text in running), seen[-5:]
    assert seen[-1].startswith("Gecontroleerd in"), seen[-1]
    # the counter moves while the check runs, and never goes back
    counts = [int(re.sub(r"\D", "", m.group(1))) for m in map(COUNT.search, running) if m]
    assert counts and max(counts) > 0 and counts == sorted(counts), counts
    english = re.compile(r"\b(undecided|searching|walking|removing|time limit|nodes)\b")
    assert not [text for text in seen if english.search(text)], seen
    assert "hetzelfde zoekprogramma" in page.locator(".rb-note").inner_text()
    context.close()


# Cat.B1's second problem (M. van Dijk, Het Parol 1971), every piece two columns to the right
SHIFTED_COPY = "W:W28,29,32,38,39,41,48:B6,7,8,9,17,18,37"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_pasted_shifted_copy_finds_its_original_in_the_browser(
    browser: Any, server: str, width: int
) -> None:
    page = open_checker(browser, server, width=width)
    page.fill(".rb-paste", SHIFTED_COPY)
    page.click(".rb-load")
    page.wait_for_function(
        "() => document.querySelector('.rb-sq[data-square=\"37\"]').dataset.piece === 'b'"
    )
    page.click(".rb-similar")
    first = page.locator(".rb-similar-report .rb-relatives li").first
    first.wait_for(timeout=120_000)
    link = first.locator("a")
    assert link.get_attribute("href") == f"{server}/en/problemen/cat-b1/02/"
    text = first.text_content()
    assert text.startswith("Cat.B1, 2 (M.van Dijk, Het Parol , 18-9-1971) "), text
    assert "possible anticipation" in text, text
    assert "same position, shifted two columns" in text, text
    assert "(likeness 100%)" in text, text
    status = page.locator(".rb-similar-status").inner_text()
    assert "published problems are like it" in status, status
    # the search ran on what the site itself serves
    assert all(url.startswith(server) for url in page.requests), page.requests  # type: ignore[attr-defined]
    assert not page.console.problems  # type: ignore[attr-defined]
    page.context.close()


def test_what_stays_open_gets_the_engines_opinion_as_on_the_command_line(
    browser: Any, server: str
) -> None:
    """A PWCP-2 problem at one second stays undecided; the page shows the engine's opinion of
    each open question (the WebAssembly build's, the same as the command line's), worded as no
    proof."""
    games, errors = read_pdn_file(PWCP)
    assert not errors
    # A8: open at 20 s (criteria C and G), so surely at one second
    text = write_game(games[7])
    fragment = "#pdn=" + urllib.parse.quote(text) + "&seconds=1&run=1"
    page = open_checker(browser, server, fragment, axe=True)
    wait_for_report(page, timeout=120_000)
    record = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.lastRecord")
    problem = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.problem()")
    assert record["grade"] == "undecided" and record["report"]["compiled"] is True
    expected = command_line(json.loads(problem), 1.0)
    same_judgement(record, expected)  # the opinions included
    assert expected["opinions"]
    shown = page.locator(".rb-opinions .rb-opinion-list li")
    assert shown.count() == len(expected["opinions"])
    assert page.locator(".rb-opinions").is_visible()
    first = shown.first.inner_text()
    assert first.startswith(", ".join(expected["opinions"][0]["criteria"]) + ": not proved; ")
    assert expected["opinions"][0]["line"].split()[0] in first
    assert "agreed with the proof" in page.locator(".rb-opinion-calibration").inner_text()
    # the page showing the opinions: no WCAG 2.1 A or AA violation, on a desktop and a phone
    # (here rather than in test_accessibility.py, so the problem is judged once for both)
    assert AXE.is_file(), "node_modules/axe-core is missing: run 'npm ci' (scripts/test.sh does)"
    found = at_both_widths(page)
    assert found == [], "\n".join(found)
    assert page.console.problems == []  # type: ignore[attr-defined]
    page.context.close()
