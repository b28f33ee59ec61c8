/*
 * rulebook_build checker worker: Pyodide and the project's own Python code, off the page's
 * thread so the page stays responsive while a problem is judged, with the compiled proof
 * search as WebAssembly (prover-host.js) and the site's endgame tables read a block at a time.
 *
 * Messages in: {id, base, op, args, tables} with op one of load, moves, check, pdn (the
 * functions of rulebook_build/checkpage/entry.py; every argument and answer is a string or a number,
 * never code); tables: per variant the SHA-256 of its manifest and its pieces, from the page.
 * Messages out: {id, result} (JSON text), {id, progress: {nodes, stage}} while a check runs,
 * {id, failure} when Python itself failed, {ready: true} once Python is loaded.
 * Everything is loaded from the site itself (base: the site's assets/ folder).
 *
 * Tables: the manifest of a variant (tables/<variant>/tables-<variant>.json) is checked against
 * the page's SHA-256, with the SHA-256 of table-fetch.js (the browser's crypto.subtle exists
 * only on HTTPS or localhost, and the page works over plain HTTP too), and handed to Python,
 * which fetches each block it needs with a synchronous Range request (allowed in a worker;
 * table-fetch.js: a timeout, a 5xx or a body cut short tried again, the whole file where a
 * host ignores Range kept and sliced) and checks it against its own SHA-256 before use
 * (rulebook_build/engine/tables/remote.py).  A table that could not be fetched is left out of
 * the judgement, and the report names it.
 *
 * Round trips: before the search starts, what it will certainly ask first (the page list of
 * every class the position can come to, and the small classes whole) is fetched with several
 * requests in flight (table-fetch.js prefetch); the search then asks only for its blocks.
 * Between visits: every range fetched is kept in the browser's IndexedDB under the manifest's
 * digest (table-fetch.js keptSpans), whatever the host's caching headers say, and read before
 * the network; Python checks what comes from there as it checks what comes from the host, and
 * a check that met a block failing its checksum makes the worker forget the whole set.  The
 * page says what is kept, and its button forgets it ({op: "forget"}).  Messages out besides:
 * {kept: bytes} and {id, fetching: {done, total} or {name, bytes, active}} while tables come.
 */
/* A module worker (Pyodide supports no other kind); checker.js starts it. */
import {
  checkedManifest,
  fetchWhole,
  indexedDbBackend,
  keptFetch,
  keptSpans,
  prefetch,
  rangeFetch,
  rangeReader,
  tablesToPrefetch,
  xhrSend
} from "./table-fetch.js";

var ATTEMPTS = 3; /* tries of a request whose failure may pass */
var TIMEOUT_MS = 30000; /* a request not answered in this time is given up (and tried again) */

var python = null;
var prover = null; /* promise of {module, createHost}, or of null without the WebAssembly build */
var opened = {}; /* variant -> promise of what open_tables said */
var reader = rangeReader(xhrSend(TIMEOUT_MS), ATTEMPTS);
var fetching = 0; /* milliseconds the table requests took */
var current = null; /* the check under way: {id, nodes, stage} */
var kept = {}; /* variant -> keptSpans: what was fetched, this visit and before (table-fetch.js) */
var manifests = {}; /* variant -> the checked manifest, parsed */
var IN_FLIGHT = 6; /* prefetch requests under way at once (a browser's connections to a host) */
var WHOLE_BYTES = 32768; /* remote.py WHOLE_BYTES: a class this small is fetched whole */

/* the kept spans of each variant the page carries a manifest digest for */
function keepTables(tables) {
  if (Object.keys(kept).length) {
    return;
  }
  var digests = Object.keys(tables || {}).map(function (variant) {
    return tables[variant].digest;
  });
  var backend = null;
  try {
    backend = typeof indexedDB === "object" && indexedDB ? indexedDbBackend(indexedDB, digests) : null;
  } catch (error) {
    backend = null;
  }
  var none = {
    load: function () {
      return Promise.resolve([]);
    },
    save: function () {
      return Promise.resolve();
    },
    forget: function () {
      return Promise.resolve();
    }
  };
  Object.keys(tables || {}).forEach(function (variant) {
    kept[variant] = keptSpans(backend || none, tables[variant].digest);
  });
  allKept().then(tellKept);
}

function allKept() {
  return Promise.all(
    Object.keys(kept).map(function (variant) {
      return kept[variant].ready;
    })
  );
}

/* the page states what this browser keeps of the tables */
function tellKept() {
  var bytes = 0;
  Object.keys(kept).forEach(function (variant) {
    bytes += kept[variant].bytes;
  });
  self.postMessage({ kept: bytes });
}

/* the search is about to wait for the network: the page says so, with what came so far */
function tellFetching(name, active) {
  if (current) {
    self.postMessage({
      id: current.id,
      fetching: {
        name: name.replace(/\.(blocks|pages)$/, ""),
        active: active,
        bytes: reader.downloaded - current.downloaded + current.prefetched /* this check's */
      }
    });
  }
}

/* bytes [start, end) of url, synchronously: Python's table reader calls this in the middle of
 * a search */
function fetchRange(url, start, end) {
  var began = performance.now();
  var name = url.slice(url.lastIndexOf("/") + 1);
  tellFetching(name, true);
  try {
    return reader(url, start, end);
  } finally {
    fetching += performance.now() - began;
    tellFetching(name, false);
  }
}

function openTables(api, base, variant, expected) {
  if (!opened[variant]) {
    var folder = base + "rulebook/tables/" + variant + "/";
    var manifest = "tables-" + variant + ".json";
    opened[variant] = Promise.all([fetchWhole(folder + manifest, ATTEMPTS), prover])
      .then(function (parts) {
        var compiled = parts[1];
        var text = checkedManifest(parts[0], expected && expected.digest, manifest);
        manifests[variant] = JSON.parse(text);
        var network = function (name, start, end) {
          return fetchRange(folder + name, start, end);
        };
        var fetcher = kept[variant] ? keptFetch(kept[variant], network) : network;
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
        return JSON.parse(api.open_tables(variant, text, fetcher, host));
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
              "import rulebook_build.checkpage.entry\n"
          );
          self.postMessage({ ready: true });
          return py.pyimport("rulebook_build.checkpage.entry");
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
  keepTables(message.tables);
  if (message.op === "forget") {
    /* the page's button: nothing kept of any table set, here or in the browser's storage */
    Promise.all(
      Object.keys(kept).map(function (variant) {
        return kept[variant].forget();
      })
    )
      .catch(function () {})
      .then(function () {
        tellKept();
        self.postMessage({ id: message.id, result: "{}" });
      });
    return;
  }
  if (message.op === "start") {
    python.then(
      function (api) {
        /* while the composer sets up the problem: each variant's manifest checked and its
         * tables opened, so that a check starts with its first block */
        Object.keys(message.tables || {}).forEach(function (variant) {
          openTables(api, message.base, variant, message.tables[variant]);
        });
      },
      function (error) {
        self.postMessage({ id: message.id, failure: String(error) });
      }
    );
    return;
  }
  var tablesSaid = null;
  var prefetched = { requests: 0, bytes: 0 };
  python
    .then(function (api) {
      if (message.op !== "check") {
        return api;
      }
      var variant = variantOf(message.args[0]);
      var expected = (message.tables || {})[variant];
      var spans = kept[variant];
      return Promise.all([openTables(api, message.base, variant, expected), spans && spans.ready])
        .then(function (parts) {
          tablesSaid = parts[0];
          if (!spans || !manifests[variant] || tablesSaid.error) {
            return null;
          }
          /* what the search will certainly ask first, asked now, several at a time */
          var fen = "";
          try {
            fen = JSON.parse(message.args[0]).fen;
          } catch (error) {
            return null;
          }
          var folder = message.base + "rulebook/tables/" + variant + "/";
          var wanted = tablesToPrefetch(manifests[variant], fen, WHOLE_BYTES);
          return prefetch(wanted, spans, rangeFetch(folder), IN_FLIGHT, function (done, total) {
            self.postMessage({
              id: message.id,
              fetching: { done: done, total: total, active: done < total }
            });
          }).then(function (fetched) {
            prefetched = fetched;
            return spans.flush();
          });
        })
        .then(function () {
          return api;
        });
    })
    .then(function (api) {
      var result;
      if (message.op === "check") {
        var before = [reader.downloaded, reader.requests, fetching];
        current = {
          id: message.id,
          nodes: 0,
          stage: "",
          downloaded: reader.downloaded,
          prefetched: prefetched.bytes
        };
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
          record.report.downloaded = reader.downloaded - before[0];
          record.report.requests = reader.requests - before[1];
          record.report.fetch_seconds = (fetching - before[2]) / 1000;
          record.report.tables_error = tablesSaid && tablesSaid.error ? tablesSaid.error : null;
          record.report.prefetched = prefetched;
          var spans = kept[variantOf(message.args[0])];
          var damaged = (record.report.table_faults || []).some(function (fault) {
            return fault.kind === "checksum";
          });
          if (spans) {
            /* kept before the verdict is shown (a composer may close the page then); a block
             * that failed its checksum may have been kept so: none of the set is kept */
            var answer = JSON.stringify(record);
            return (damaged ? spans.forget() : spans.flush())
              .catch(function () {})
              .then(function () {
                tellKept();
                self.postMessage({ id: message.id, result: answer });
              });
          }
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
