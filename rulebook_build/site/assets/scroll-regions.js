/*
 * rulebook_build: tables that scroll sideways can be reached with the keyboard.
 *
 * Material wraps every Markdown table in <div class="md-typeset__scrollwrap">, which scrolls
 * sideways when the table is wider than the page (a phone); our own wide tables sit in
 * <div class="rb-table-scroll">.  A keyboard user can only scroll such a box once it can take
 * the focus (WCAG 2.1.1; axe: scrollable-region-focusable), so while a box scrolls it gets
 * tabindex="0", role="region" and a name: the table's caption, or else the heading the table
 * stands under.  When it no longer scrolls (a wider window, a filtered table) what was added
 * goes again, so that a desktop reader does not tab through every table; a ResizeObserver
 * watches each box and its table.  A box that has a tabindex of its own is left alone.
 *
 * Loaded on every page, like player.js (site/plugin.py, ASSET_FILES).
 */
(function () {
  "use strict";

  var BOXES = ".md-typeset__scrollwrap, .rb-table-scroll";
  var MARK = "data-rb-scroll-region";
  var HEADINGS = "h1, h2, h3, h4, h5, h6";

  /* The text of a caption or heading, without Material's permalink (the pilcrow). */
  function words(element) {
    var copy = element.cloneNode(true);
    var links = copy.querySelectorAll(".headerlink");
    for (var i = 0; i < links.length; i++) {
      links[i].parentNode.removeChild(links[i]);
    }
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function name(box) {
    var caption = box.querySelector("caption");
    if (caption && words(caption)) {
      return words(caption);
    }
    var heading = null;
    var headings = document.querySelectorAll(HEADINGS);
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING) {
        heading = headings[i];
      } else {
        break;
      }
    }
    return (heading && words(heading)) || document.title;
  }

  function update(box) {
    if (box.hasAttribute("tabindex") && !box.hasAttribute(MARK)) {
      return;
    }
    var scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute(MARK)) {
      /* remember what we add, to take away only that (a page may name its own boxes) */
      var added = { tabindex: "0", role: "region", "aria-label": null };
      var names = [];
      Object.keys(added).forEach(function (attribute) {
        var named = attribute === "aria-label" && box.hasAttribute("aria-labelledby");
        if (!box.hasAttribute(attribute) && !named) {
          box.setAttribute(attribute, added[attribute] || name(box));
          names.push(attribute);
        }
      });
      box.setAttribute(MARK, names.join(" "));
    } else if (!scrolls && box.hasAttribute(MARK)) {
      box
        .getAttribute(MARK)
        .split(" ")
        .forEach(function (attribute) {
          if (attribute) {
            box.removeAttribute(attribute);
          }
        });
      box.removeAttribute(MARK);
    }
  }

  var observer = null;
  if (typeof window.ResizeObserver === "function") {
    /* a box's width follows the window; a table's follows its rows (a filter, a report) */
    observer = new window.ResizeObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) {
        var box = entries[i].target.closest(BOXES);
        if (box) {
          update(box);
        }
      }
    });
  }

  function setup() {
    var boxes = document.querySelectorAll(BOXES);
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      update(box);
      if (observer && !box.rbObserved) {
        box.rbObserved = true;
        observer.observe(box);
        if (box.firstElementChild) {
          observer.observe(box.firstElementChild);
        }
      }
    }
  }

  if (!observer) {
    window.addEventListener("resize", setup);
  }
  /* Material wraps the tables when it sets up a page (and again after an instant navigation) */
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
