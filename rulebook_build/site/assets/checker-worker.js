/*
 * rulebook_build checker worker: Pyodide and the project's own Python code, off the page's
 * thread so the page stays responsive while a problem is judged, with the compiled proof
 * search as WebAssembly (prover-host.js) and the site's endgame tables read a block at a time.
 *
 * Messages in: {id, base, op, args, tables} with op one of load, moves, check, pdn (the
 * functions of rulebook_build/browser.py; every argument and answer is a string or a number,
 * never code); tables: per variant the SHA-256 of its manifest and its pieces, from the page.
 * Messages out: {id, result} (JSON text), {id, progress: {nodes, stage}} while a check runs,
 * {id, failure} when Python itself failed, {ready: true} once Python is loaded.
 * Everything is loaded from the site itself (base: the site's assets/ folder).
 *
 * Tables: the manifest of a variant (tables/<variant>/tables-<variant>.json) is checked against
 * the page's SHA-256 and handed to Python, which fetches each block it needs with a synchronous
 * Range request (allowed in a worker) and checks it against its own SHA-256 before use
 * (rulebook_build/checker/tables/remote.py).  The browser's HTTP cache keeps what was fetched
 * between checks; a host that ignores Range sends the whole file, which is then kept whole.
 */
/* A module worker (Pyodide supports no other kind); checker.js starts it. */

var python = null;
var prover = null; /* promise of {module, createHost}, or of null without the WebAssembly build */
var opened = {}; /* variant -> promise of what open_tables said */
var whole = {}; /* url -> the whole file, where the host answered a Range request with it */
var downloaded = 0; /* bytes of table files fetched by this worker */
var requests = 0; /* and the requests, and the milliseconds they took */
var fetching = 0;
var current = null; /* the check under way: {id, nodes, stage} */

function hex(buffer) {
  return Array.from(new Uint8Array(buffer))
    .map(function (b) {
      return b.toString(16).padStart(2, "0");
    })
    .join("");
}

/* bytes [start, end) of url, synchronously: Python's table reader calls this in the middle of
 * a search */
function fetchRange(url, start, end) {
  if (whole[url]) {
    return whole[url].slice(start, end);
  }
  var began = performance.now();
  requests += 1;
  try {
    return rangeOf(url, start, end);
  } finally {
    fetching += performance.now() - began;
  }
}

function rangeOf(url, start, end) {
  var request = new XMLHttpRequest();
  request.open("GET", url, false);
  request.responseType = "arraybuffer";
  request.setRequestHeader("Range", "bytes=" + start + "-" + (end - 1));
  request.send(null);
  if (request.status === 206) {
    downloaded += request.response.byteLength;
    return new Uint8Array(request.response);
  }
  if (request.status === 200) {
    downloaded += request.response.byteLength;
    whole[url] = new Uint8Array(request.response);
    return whole[url].slice(start, end);
  }
  throw new Error(url + ": HTTP " + request.status);
}

function openTables(api, base, variant, expected) {
  if (!opened[variant]) {
    var folder = base + "rulebook/tables/" + variant + "/";
    opened[variant] = Promise.all([
      fetch(folder + "tables-" + variant + ".json").then(function (response) {
        if (!response.ok) {
          throw new Error("tables-" + variant + ".json: HTTP " + response.status);
        }
        return response.arrayBuffer();
      }),
      prover
    ])
      .then(function (parts) {
        var buffer = parts[0];
        var compiled = parts[1];
        return crypto.subtle.digest("SHA-256", buffer).then(function (digest) {
          if (!expected || hex(digest) !== expected.digest) {
            throw new Error("tables-" + variant + ".json does not match its checksum");
          }
          var fetcher = function (name, start, end) {
            return fetchRange(folder + name, start, end);
          };
          var host = null;
          if (compiled) {
            host = compiled.createHost(
              compiled.module,
              {
                blocks: function (a, b, c, d) {
                  return api.table_blocks(variant, a, b, c, d);
                },
                codes: function (a, b, c, d, block) {
                  var codes = api.table_codes(variant, a, b, c, d, block);
                  return codes === undefined ? null : codes;
                }
              },
              function (nodes) {
                if (current) {
                  self.postMessage({
                    id: current.id,
                    progress: { nodes: current.nodes + nodes, stage: current.stage }
                  });
                }
              }
            );
          }
          var text = new TextDecoder().decode(buffer);
          return JSON.parse(api.open_tables(variant, text, fetcher, host));
        });
      })
      .catch(function (error) {
        return { error: String(error.message || error) };
      });
  }
  return opened[variant];
}

function loadProver(base) {
  return Promise.all([
    fetch(base + "rulebook/prover.wasm").then(function (response) {
      if (!response.ok) {
        return null; /* a site built without Zig: the Python search alone */
      }
      return response.arrayBuffer().then(function (bytes) {
        return WebAssembly.compile(bytes);
      });
    }),
    import(base + "rulebook/prover-host.js")
  ])
    .then(function (parts) {
      return parts[0] ? { module: parts[0], createHost: parts[1].createHost } : null;
    })
    .catch(function () {
      return null;
    });
}

function start(base, pyodide) {
  prover = loadProver(base);
  return import(base + pyodide + "pyodide.mjs")
    .then(function (module) {
      return module.loadPyodide({ indexURL: base + pyodide });
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

var similarLoaded = null;

function similarIndex(api, base) {
  if (similarLoaded === null) {
    similarLoaded = fetch(base + "rulebook/similar-index.json")
      .then(function (response) {
        if (!response.ok) {
          throw new Error("the site's problem index is missing: " + response.status);
        }
        return response.text();
      })
      .then(function (text) {
        api.similar_index(text);
      })
      .catch(function (error) {
        similarLoaded = null; /* try again next time */
        throw error;
      });
  }
  return similarLoaded;
}

function variantOf(problem) {
  try {
    return JSON.parse(problem).variant === "frisian" ? "frisian" : "international";
  } catch (error) {
    return "international"; /* the check itself reports a broken problem */
  }
}

self.onmessage = function (event) {
  var message = event.data;
  if (python === null) {
    python = start(message.base, message.pyodide || "pyodide/");
  }
  if (message.op === "start") {
    python.catch(function (error) {
      self.postMessage({ id: message.id, failure: String(error) });
    });
    return;
  }
  var tablesSaid = null;
  python
    .then(function (api) {
      if (message.op !== "check") {
        return api;
      }
      var variant = variantOf(message.args[0]);
      var expected = (message.tables || {})[variant];
      return openTables(api, message.base, variant, expected).then(function (said) {
        tablesSaid = said;
        return api;
      });
    })
    .then(function (api) {
      var result;
      if (message.op === "check") {
        current = { id: message.id, nodes: 0, stage: "" };
        var before = [downloaded, requests, fetching];
        var progress = function (text) {
          current.stage = String(text);
          self.postMessage({ id: message.id, progress: { nodes: current.nodes, stage: current.stage } });
        };
        var counted = function (count) {
          current.nodes = Number(count);
          self.postMessage({ id: message.id, progress: { nodes: current.nodes, stage: current.stage } });
        };
        try {
          result = api.check(message.args[0], message.args[1], message.args[2], progress, counted);
        } finally {
          current = null;
        }
        var record = JSON.parse(String(result));
        if (record.report) {
          record.report.downloaded = downloaded - before[0];
          record.report.requests = requests - before[1];
          record.report.fetch_seconds = (fetching - before[2]) / 1000;
          record.report.tables_error = tablesSaid && tablesSaid.error ? tablesSaid.error : null;
        }
        result = JSON.stringify(record);
      } else if (message.op === "similar") {
        /* the site's own index of its published problems, fetched once (no other host) */
        return similarIndex(api, message.base).then(function () {
          self.postMessage({ id: message.id, result: String(api.similar.apply(null, message.args)) });
        });
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
