/* The check page's worker started as the page is read, not once the theme's and the page's
 * scripts have come (some 0.7 s later over a home connection): Pyodide loads meanwhile.
 * Written inline into the page (templates/checker.html) just after the page's strings, so it
 * costs no request, and allowed there by its SHA-256 (site/page_html.py), as no other script
 * in a page's text is.  Its messages wait in a list until checker.js adopts the worker
 * (App.startWorker); where anything here fails, checker.js starts it as before.  It reads
 * only the page's own attributes and strings. */
(function () {
  var root = document.currentScript && document.currentScript.parentNode;
  if (!root || typeof Worker !== "function" || typeof WebAssembly !== "object") {
    return;
  }
  try {
    var base = new URL(root.getAttribute("data-base"), window.location.href).href;
    var strings = JSON.parse(root.querySelector(".rb-checker-strings").textContent);
    var worker = new Worker(base + "rulebook/checker-worker.js", { type: "module" });
    var early = { worker: worker, messages: [], error: null };
    worker.onmessage = function (event) {
      early.messages.push(event.data);
    };
    worker.onerror = function (event) {
      early.error = String(event.message || "worker error");
    };
    worker.postMessage({
      id: 0,
      base: base,
      pyodide: root.getAttribute("data-pyodide") || "pyodide/",
      op: "start",
      args: [],
      tables: strings.tables || {}
    });
    root.rulebookEarlyWorker = early;
  } catch (error) {
    /* checker.js starts the worker */
  }
})();
