/*
 * rulebook_build collection tables and the problems index: filters, search and sorting.
 *
 * Progressive: the page lists every problem without a script.  With it, each
 * <div class="rb-filters" data-for="ID"> is shown and filters the rows (<tr>) or items (<li>)
 * of the element with that id by their data- attributes: a <select data-filter="grade"> keeps
 * the rows whose data-grade equals its value; data-filter="pieces" takes a range "8-12";
 * data-filter="text" keeps the rows whose data-text contains every word typed.  The headers
 * of a table.rb-report with data-sort sort its rows by that data- attribute (numbers as
 * numbers), ascending, then descending, with aria-sort on the header.  No page reload.
 *
 * A box with data-state="url" (the problems index) keeps its filters in the address, one
 * parameter a filter, the search as "search" ("q" is the site search's own, "h" its
 * highlighting): ?variant=frisian&grade=incorrect&search=scheijen.  Each change rewrites the
 * address with history.replaceState (no new history entry); at load the address sets the
 * filters, so Back from a problem, a reload and a shared link show the same rows.  Values
 * the filter does not offer are dropped.
 */
(function () {
  "use strict";

  var GRADE_ORDER = { correct: 0, "correct with remarks": 1, incorrect: 2, undecided: 3 };

  function matches(row, filters) {
    for (var i = 0; i < filters.length; i++) {
      var control = filters[i];
      var wanted = control.value.trim().toLowerCase();
      if (!wanted) {
        continue;
      }
      var name = control.getAttribute("data-filter");
      var value = (row.getAttribute("data-" + name) || "").toLowerCase();
      if (name === "text") {
        var words = wanted.split(/\s+/);
        for (var w = 0; w < words.length; w++) {
          if (value.indexOf(words[w]) < 0) {
            return false;
          }
        }
      } else if (name === "pieces") {
        var range = wanted.split("-");
        var count = Number(value);
        if (count < Number(range[0]) || count > Number(range[1])) {
          return false;
        }
      } else if (value !== wanted) {
        return false;
      }
    }
    return true;
  }

  function rowsOf(target) {
    var body = target.tBodies ? target.tBodies[0] : target;
    var rows = [];
    for (var i = 0; i < body.children.length; i++) {
      rows.push(body.children[i]);
    }
    return rows;
  }

  function parameterOf(control) {
    var name = control.getAttribute("data-filter");
    return name === "text" ? "search" : name;
  }

  // the value of a select that matches ``wanted`` (case aside), or "" when none does
  function offered(control, wanted) {
    var options = control.options;
    for (var i = 0; i < options.length; i++) {
      if (options[i].value.toLowerCase() === wanted.toLowerCase()) {
        return options[i].value;
      }
    }
    return "";
  }

  function readAddress(filters) {
    var params = new URLSearchParams(window.location.search);
    for (var i = 0; i < filters.length; i++) {
      var wanted = params.get(parameterOf(filters[i]));
      if (wanted !== null) {
        filters[i].value = filters[i].tagName === "SELECT" ? offered(filters[i], wanted) : wanted;
      }
    }
  }

  function writeAddress(filters) {
    var url = new URL(window.location.href);
    for (var i = 0; i < filters.length; i++) {
      var value = filters[i].value.trim();
      if (value) {
        url.searchParams.set(parameterOf(filters[i]), value);
      } else {
        url.searchParams.delete(parameterOf(filters[i]));
      }
    }
    if (url.href !== window.location.href) {
      try {
        window.history.replaceState(window.history.state, "", url.href);
      } catch (error) {
        // a browser that limits how often the address may change: the filters still work
      }
    }
  }

  function setupFilters(box) {
    var target = document.getElementById(box.getAttribute("data-for"));
    if (!target) {
      return;
    }
    var filters = box.querySelectorAll("[data-filter]");
    var count = box.querySelector(".rb-count");
    function apply() {
      var rows = rowsOf(target);
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var keep = matches(rows[i], filters);
        rows[i].hidden = !keep;
        shown += keep ? 1 : 0;
      }
      if (count) {
        count.textContent = count
          .getAttribute("data-template")
          .replace("{shown}", String(shown))
          .replace("{total}", String(rows.length));
      }
    }
    var remember = box.getAttribute("data-state") === "url";
    function changed() {
      apply();
      if (remember) {
        writeAddress(filters);
      }
    }
    for (var i = 0; i < filters.length; i++) {
      filters[i].addEventListener(filters[i].tagName === "INPUT" ? "input" : "change", changed);
    }
    if (remember) {
      readAddress(filters);
    }
    box.hidden = false;
    changed();
  }

  function sortKey(row, name) {
    var value = row.getAttribute("data-" + name) || "";
    if (name === "grade") {
      return value in GRADE_ORDER ? GRADE_ORDER[value] : 9;
    }
    var number = Number(value);
    return value !== "" && !isNaN(number) ? number : value.toLowerCase();
  }

  function setupSorting(table) {
    var headers = table.querySelectorAll("th[data-sort]");
    for (var i = 0; i < headers.length; i++) {
      (function (header) {
        var button = header.querySelector("button");
        if (!button) {
          return;
        }
        button.addEventListener("click", function () {
          var name = header.getAttribute("data-sort");
          var ascending = header.getAttribute("aria-sort") !== "ascending";
          for (var j = 0; j < headers.length; j++) {
            headers[j].removeAttribute("aria-sort");
          }
          header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
          var rows = rowsOf(table);
          rows.sort(function (a, b) {
            var x = sortKey(a, name);
            var y = sortKey(b, name);
            var order =
              typeof x === "string" || typeof y === "string"
                ? String(x).localeCompare(String(y), undefined, { numeric: true })
                : x - y;
            if (order === 0) {
              order = Number(a.getAttribute("data-number")) - Number(b.getAttribute("data-number"));
            }
            return ascending ? order : -order;
          });
          var body = table.tBodies[0];
          for (var k = 0; k < rows.length; k++) {
            body.appendChild(rows[k]);
          }
        });
      })(headers[i]);
    }
  }

  function setup() {
    var boxes = document.querySelectorAll(".rb-filters[data-for]");
    for (var i = 0; i < boxes.length; i++) {
      if (!boxes[i].getAttribute("data-rb-ready")) {
        boxes[i].setAttribute("data-rb-ready", "true");
        setupFilters(boxes[i]);
      }
    }
    var tables = document.querySelectorAll("table.rb-report");
    for (var t = 0; t < tables.length; t++) {
      if (!tables[t].getAttribute("data-rb-ready")) {
        tables[t].setAttribute("data-rb-ready", "true");
        setupSorting(tables[t]);
      }
    }
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
