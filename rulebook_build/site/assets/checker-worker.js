/*
 * rulebook_build checker worker: Pyodide and the project's own Python code, off the page's
 * thread so the page stays responsive while a problem is judged.
 *
 * Messages in: {id, base, op, args} with op one of load, moves, check, pdn (the functions of
 * rulebook_build/browser.py; every argument and answer is a string or a number, never code).
 * Messages out: {id, result} (JSON text), {id, progress: {nodes, stage}} while a check runs,
 * {id, failure} when Python itself failed, {ready: true} once Python is loaded.
 * Everything is loaded from the site itself (base: the site's assets/ folder).
 */
/* A module worker (Pyodide supports no other kind); checker.js starts it. */

var python = null;
var tables = {}; /* variant -> promise of its small endgame tables, unpacked once */

function withTables(py, base, problem) {
  var variant = "international";
  try {
    variant = JSON.parse(problem).variant === "frisian" ? "frisian" : "international";
  } catch (error) {
    /* the check itself reports a broken problem */
  }
  if (!tables[variant]) {
    tables[variant] = fetch(base + "rulebook/tables-" + variant + ".tar.gz")
      .then(function (response) {
        if (!response.ok) {
          return null; /* the search goes without: slower, never wrong */
        }
        return response.arrayBuffer().then(function (buffer) {
          py.unpackArchive(buffer, "gztar", { extractDir: "/home/pyodide/tables" });
        });
      })
      .catch(function () {
        return null;
      });
  }
  return tables[variant];
}

function start(base) {
  return import(base + "pyodide/pyodide.mjs")
    .then(function (module) {
      return module.loadPyodide({ indexURL: base + "pyodide/" });
    })
    .then(function (py) {
    return fetch(base + "rulebook/rulebook-python.zip")
      .then(function (response) {
        if (!response.ok) {
          throw new Error("the checker's Python files are missing: " + response.status);
        }
        return response.arrayBuffer();
      })
      .then(function (buffer) {
        py.unpackArchive(buffer, "zip", { extractDir: "/home/pyodide/rulebook" });
        self.pyodide = py;
        py.runPython(
          "import sys\n" +
            "sys.path.insert(0, '/home/pyodide/rulebook')\n" +
            "import rulebook_build.browser\n"
        );
        self.postMessage({ ready: true });
        return py.pyimport("rulebook_build.browser");
      });
  });
}

self.onmessage = function (event) {
  var message = event.data;
  if (python === null) {
    python = start(message.base);
  }
  if (message.op === "start") {
    python.catch(function (error) {
      self.postMessage({ id: message.id, failure: String(error) });
    });
    return;
  }
  python
    .then(function (api) {
      if (message.op !== "check") {
        return api;
      }
      return withTables(self.pyodide, message.base, message.args[0]).then(function () {
        return api;
      });
    })
    .then(function (api) {
      var result;
      if (message.op === "check") {
        var nodes = 0;
        var stage = "";
        var progress = function (text) {
          stage = String(text);
          self.postMessage({ id: message.id, progress: { nodes: nodes, stage: stage } });
        };
        var counted = function (count) {
          nodes = Number(count);
          self.postMessage({ id: message.id, progress: { nodes: nodes, stage: stage } });
        };
        result = api.check(message.args[0], message.args[1], message.args[2], progress, counted);
      } else if (["load", "moves", "pdn"].indexOf(message.op) >= 0) {
        result = api[message.op].apply(null, message.args);
      } else {
        throw new Error("unknown operation " + message.op);
      }
      self.postMessage({ id: message.id, result: String(result) });
    })
    .catch(function (error) {
      self.postMessage({ id: message.id, failure: String(error) });
    });
};
