/*
 * rulebook_build checker worker: Pyodide and the project's own Python code, off the page's
 * thread so the page stays responsive while a problem is judged, with the compiled proof
 * search as WebAssembly (prover-host.js) and the site's endgame tables read a block at a time.
 *
 * Messages in: {id, base, op, args, tables} with op one of load, moves, check, pdn (the
 * functions of rulebook_build/checkpage/entry.py), start (load Python, open the tables),
 * ahead (a problem's PDN text: the tables it will need asked now) or forget (what is kept of
 * the tables); every argument and answer is a string or a number, never code; tables: per
 * variant the SHA-256 of its manifest and its pieces, from the page.
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
 * Round trips (guides/design.md, "The check page"): as soon as the problem is known (op
 * "ahead" from a link, or the check), what the search will certainly ask first (the page list
 * of every class the position can come to, and the small classes whole) is fetched with many
 * requests in flight (table-fetch.js prefetch), while Python may still be loading.  Then
 * scouts (prover-host.js scout): the judgement's first searches (the position after each
 * first move, entry.py scout_requests) run in fresh instances that never wait, each stopped
 * once it wants enough blocks; each of those blocks alone, with its page's sums
 * (tables.py table_request), is fetched as soon as its scout stops (a scout's ranges of a file
 * that lie close together in one request), and the scouts that wanted something run again,
 * a few rounds at most (scoutSettings: how many, and how close, by the connection).  The
 * scouts' answers are thrown away: the judgement runs as without them, takes the blocks they
 * fetched from what is kept (open_tables' `kept`), and asks the host only for the blocks still
 * missing, each with its page.  Where the
 * browser can suspend WebAssembly on a promise (JSPI), the check is a promising call and
 * Python waits for the scouts of every later search too (scoutBefore, tables.py
 * _ScoutedHost).  A problem judged is noted among the kept spans: the next check of it runs no
 * scouts.
 * Between visits: every range fetched is kept in the browser's IndexedDB under the manifest's
 * digest (table-fetch.js keptSpans), whatever the host's caching headers say, and read before
 * the network; Python checks what comes from there as it checks what comes from the host, and
 * a check that met a block (or a kept range) failing its checksum makes the worker forget the
 * whole set.  The page says what is kept, and its button forgets it ({op: "forget"}).
 * Messages out besides:
 * {kept: bytes} and {id, fetching: {done, total} or {name, bytes, active}} while tables come.
 */
/* A module worker (Pyodide supports no other kind); checker.js starts it. */
import {
  checkedManifest,
  fetchWhole,
  hex,
  indexedDbBackend,
  keptFetch,
  keptSpans,
  mergedRanges,
  pageEntryBytes,
  prefetch,
  rangeFetch,
  rangeReader,
  scoutingFor,
  sha256,
  tablesToPrefetch,
  WHOLE_FILES,
  xhrSend
} from "./table-fetch.js";
import {
  blockRange,
  classBlocks,
  className,
  firstLines,
  movesRequest,
  rootLine
} from "./early-scouts.js";

var ATTEMPTS = 3; /* tries of a request whose failure may pass */
var TIMEOUT_MS = 30000; /* a request not answered in this time is given up (and tried again) */

var python = null;
var prover = null; /* promise of {module, createHost}, or of null without the WebAssembly build */
var opened = {}; /* variant -> promise of what open_tables said */
var reader = rangeReader(xhrSend(TIMEOUT_MS), ATTEMPTS, WHOLE_FILES); /* prefetches share it */
var fetching = 0; /* milliseconds the table requests took */
var current = null; /* the check under way: {id, nodes, stage} */
var kept = {}; /* variant -> keptSpans: what was fetched, this visit and before (table-fetch.js) */
var manifests = {}; /* variant -> the checked manifest, parsed */
var manifestTexts = {}; /* variant -> promise of its checked manifest's text */
/* requests asked of the browser at once: over HTTP/1.1 it opens six connections to a host and
 * queues the rest, over HTTP/2 (most hosts) they all go together */
var IN_FLIGHT = 32;
var WHOLE_BYTES = 32768; /* remote.py WHOLE_BYTES: a class this small is fetched whole */
/* blocks a scout before Python (scoutEarly) may want before it stops: those scouts cannot read
 * a block, so every block they meet past the first few hundred is a guess that the rounds
 * after Python, which read what came, mostly do not need; fewer there leave the line to
 * Pyodide's files and to those rounds (benchmarks/README.md, "On a faster machine").  The
 * scouts' other settings (rounds, blocks a scout after Python may want, how far apart a
 * scout's ranges of one file may lie and still go in one request) depend on the connection:
 * scoutSettings, table-fetch.js scoutingFor. */
var EARLY_ENOUGH = 256;
var SCOUT_TABLE_MB = 64; /* a scout's transposition table: it stops after a few blocks' search */
var EARLY_NODES = 2000000; /* tables.py SCOUT_NODES */
var EARLY_SECONDS = 20; /* entry.py DEFAULT_SECONDS, where the page gave no limit */
var earlyScout = null; /* promise of what the scouts before Python fetched (scoutEarly) */
/* what scoutEarly says where it ran no scouts */
var NO_EARLY = Object.freeze({
  requests: 0,
  bytes: 0,
  seconds: 0,
  rounds: [],
  gap: 0,
  wanted: 0,
  mark: null,
  began: 0,
  ended: 0
});
var pythonAt = 0; /* seconds from the worker's start to Python's */
var pythonStages = {}; /* seconds of the worker's life each step of Python's start ended */
var hosts = {}; /* variant -> the compiled search's host, where there is one */

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

/* a promise of the manifest's text, checked against the page's digest (and kept parsed in
 * `manifests`): asked as soon as a message names the tables, while Python is still loading */
function manifestOf(base, variant, expected) {
  if (!manifestTexts[variant]) {
    var manifest = "tables-" + variant + ".json";
    manifestTexts[variant] = fetchWhole(base + "rulebook/tables/" + variant + "/" + manifest, ATTEMPTS).then(
      function (bytes) {
        var text = checkedManifest(bytes, expected && expected.digest, manifest);
        manifests[variant] = JSON.parse(text);
        return text;
      }
    );
  }
  return manifestTexts[variant];
}

function openTables(api, base, variant, expected) {
  if (!opened[variant]) {
    var folder = base + "rulebook/tables/" + variant + "/";
    opened[variant] = Promise.all([manifestOf(base, variant, expected), prover])
      .then(function (parts) {
        var compiled = parts[1];
        var text = parts[0];
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
        hosts[variant] = host;
        var spans = kept[variant];
        var before = host && spans ? scoutBefore(api, variant, base) : undefined;
        /* a block the scouts fetched is taken from here, not asked with its group of pages */
        var ahead = spans
          ? function (name, start, end) {
              return spans.get(name, start, end);
            }
          : undefined;
        /* a kept range that failed its checksum: forgotten, so that it is asked of the host */
        var drop = spans
          ? function (name, start, end) {
              spans.drop(name, start, end);
            }
          : undefined;
        return JSON.parse(api.open_tables(variant, text, fetcher, host, ahead, before, drop));
      })
      .catch(function (error) {
        return { error: String(error.message || error) };
      });
  }
  return opened[variant];
}

/* variant -> {node: true} for each node whose scout had every block it asked for: no scout of
 * it again in this visit */
var scouted = {};

function scoutedOf(variant) {
  scouted[variant] = scouted[variant] || {};
  return scouted[variant];
}

/* The scouts before one search of the judgement (checkpage/tables.py _ScoutedHost, where the
 * browser lets Python wait for them: JSPI): a function of the request line giving a promise
 * that settles once the blocks its scouts wanted are kept (never rejected: a fetch that failed
 * is the search's to meet).  What they fetched is added to the check's counts. */
function scoutBefore(api, variant, base) {
  return function (line) {
    var spans = kept[variant];
    var check = current;
    var node = String(line).split(" ").slice(3).join(" ");
    if (!spans || !check || check.judgedBefore || scoutedOf(variant)[node]) {
      return Promise.resolve(0);
    }
    var folder = base + "rulebook/tables/" + variant + "/";
    return scoutAhead(api, variant, { lines: [String(line)], mark: "" }, spans, rangeFetch(folder), told(check.id))
      .then(function (fetched) {
        check.during.requests += fetched.requests;
        check.during.bytes += fetched.bytes;
        check.during.seconds += fetched.seconds;
        check.during.searches += 1;
        return fetched.requests;
      })
      .catch(function () {
        return 0;
      });
  };
}

/* The scouts' requests for `problem` and the name under which a judgement of it is noted
 * among the kept spans once it ended (judgedMark): its blocks are kept, and a later check of
 * the same problem at the same time limit, with the same table set, needs no scouts. */
function scoutLines(api, variant, problem, seconds) {
  var lines = [];
  try {
    lines = hosts[variant] ? JSON.parse(String(api.scout_requests(problem, seconds))) : [];
  } catch (error) {
    lines = []; /* the judgement says what is wrong with the problem */
  }
  var mark = "judged-" + hex(sha256(new TextEncoder().encode(lines.join("\n"))));
  return { lines: lines, mark: mark };
}

/* the page says how much of the tables came, of how much asked */
function told(id) {
  return function (done, total) {
    self.postMessage({ id: id, fetching: { done: done, total: total, active: done < total } });
  };
}

/* What the search will certainly ask first (the page lists of the classes the position can
 * come to, the small classes whole), asked as soon as the problem is known (op "ahead", or a
 * check), several at a time, while Python may still be loading: a promise of {requests,
 * bytes}, which never fails (a failure is left to the search, which asks again and says what
 * it could not have). */
function prefetchPages(base, variant, fen, tables, id) {
  var none = { requests: 0, bytes: 0 };
  var spans = kept[variant];
  if (!spans) {
    return Promise.resolve(none);
  }
  return Promise.all([manifestOf(base, variant, (tables || {})[variant]), spans.ready])
    .then(function () {
      var folder = base + "rulebook/tables/" + variant + "/";
      var wanted = tablesToPrefetch(manifests[variant], fen, WHOLE_BYTES);
      return prefetch(wanted, spans, rangeFetch(folder), IN_FLIGHT, told(id));
    })
    .catch(function () {
      return none; /* openTables says what failed */
    });
}

/* the variant and FEN of a problem's PDN text, read by its tags (before Python can read it:
 * only to know which tables to ask ahead); null where it has no FEN tag */
function aheadOf(text) {
  var fen = /\[FEN\s+"([^"]*)"\]/.exec(String(text));
  var type = /\[GameType\s+"([0-9]+)/.exec(String(text));
  if (!fen) {
    return null;
  }
  return { fen: fen[1], variant: type && type[1] === "40" ? "frisian" : "international" };
}

/* the scouts' settings (table-fetch.js scoutingFor) for the protocols of the requests this
 * worker made so far: the manifest, the search, Python's files */
function scoutSettings() {
  var entries =
    typeof performance !== "undefined" && performance.getEntriesByType
      ? performance.getEntriesByType("resource")
      : [];
  return scoutingFor(
    entries.map(function (entry) {
      return entry.nextHopProtocol;
    })
  );
}

/* Rounds of scouts (see the top of this file) before the judgement: a promise of {requests,
 * bytes} fetched.  Each round's ranges are fetched `IN_FLIGHT` at a time and kept in `spans`,
 * where the judgement's own requests find them.  A scout that wanted nothing had every block
 * it asked for, and is not run again. */
function scoutAhead(api, variant, scouts, spans, fetchAsync, onProgress) {
  var ranges = {}; /* block -> the ranges that bring it (null: none to fetch); they never move */
  function rangeOf(a, b, c, d, block) {
    var key = [a, b, c, d, block].join(",");
    if (!(key in ranges)) {
      ranges[key] = JSON.parse(String(api.table_request(variant, a, b, c, d, block)));
    }
    return ranges[key];
  }
  function ready(a, b, c, d, block) {
    var ranges = rangeOf(a, b, c, d, block);
    return (
      ranges === null ||
      ranges.every(function (range) {
        return !!spans.get(range[0], range[1], range[2]);
      })
    );
  }
  var scouting = {
    host: hosts[variant],
    rangeOf: rangeOf,
    ready: ready,
    settings: scoutSettings
  };
  return scoutRounds(variant, scouting, scouts, spans, fetchAsync, onProgress);
}

/* scoutAhead's rounds, with `scouting`: {host, rangeOf(a, b, c, d, block), ready(a, b, c, d,
 * block), settings() -> {rounds, gap (mergedRanges), enough (blocks a scout may want)}};
 * scoutEarly's too (its own host and ranges, nothing ready, one round, its own enough).  The
 * settings are asked again each round: a visit whose files all came from the browser's cache
 * knows its connection's protocol only once the first round's requests were answered. */
function scoutRounds(variant, scouting, scouts, spans, fetchAsync, onProgress) {
  var host = scouting.host;
  var rangeOf = scouting.rangeOf;
  var ready = scouting.ready;
  var fetched = { requests: 0, bytes: 0, rounds: 0, seconds: 0, each: [], gap: 0 };
  var scoutedNodes = scoutedOf(variant);
  if (!scouts.lines.length || (scouts.mark && spans.get(scouts.mark, 0, 0))) {
    return Promise.resolve(fetched);
  }
  function round(running) {
    var settings = scouting.settings();
    if (fetched.rounds >= settings.rounds || !running.length) {
      return Promise.resolve(fetched);
    }
    fetched.gap = settings.gap;
    var wanted = {};
    var asked = []; /* this round's fetches: each scout's ranges asked as soon as it stops */
    var progress = [];
    var began = performance.now();
    fetched.rounds += 1;
    var still = running.filter(function (line) {
      var blocks = host.scout(variant, SCOUT_TABLE_MB, line, ready, settings.enough);
      if (!blocks.length) {
        scoutedNodes[line.split(" ").slice(3).join(" ")] = true; /* it had every block */
      }
      var fresh = [];
      blocks.forEach(function (block) {
        (rangeOf(block[0], block[1], block[2], block[3], block[4]) || []).forEach(function (range) {
          var key = range.join("|");
          if (!wanted[key] && !spans.get(range[0], range[1], range[2])) {
            wanted[key] = true;
            fresh.push({ name: range[0], start: range[1], end: range[2] });
          }
        });
      });
      /* a scout's ranges of one file that lie close together go in one request */
      fresh = mergedRanges(fresh, settings.gap);
      if (fresh.length) {
        var index = progress.length;
        progress.push([0, 0]);
        asked.push(
          prefetch(fresh, spans, fetchAsync, IN_FLIGHT, function (done, total) {
            progress[index] = [done, total];
            onProgress(
              progress.reduce(function (sum, p) {
                return sum + p[0];
              }, 0),
              progress.reduce(function (sum, p) {
                return sum + p[1];
              }, 0)
            );
          })
        );
      }
      return blocks.length > 0;
    });
    var scouted = performance.now();
    fetched.seconds += (scouted - began) / 1000;
    if (!asked.length) {
      return Promise.resolve(fetched);
    }
    return Promise.all(asked).then(function (done) {
      /* per round: its scouts' seconds, then the seconds its fetches took after them */
      fetched.each.push([(scouted - began) / 1000, (performance.now() - scouted) / 1000]);
      done.forEach(function (one) {
        fetched.requests += one.requests;
        fetched.bytes += one.bytes;
      });
      return round(still);
    });
  }
  return round(scouts.lines);
}

/* The scouts of the problem while Python loads (op "ahead"; early-scouts.js): once the
 * compiled search and the page lists are here, the positions after each first move (the
 * search's "moves" of the start position, as tables.py scout_lines writes them) are scouted,
 * and the blocks they meet fetched at once (each with its page's sums) and kept, where the
 * scouts after Python and the judgement find them.  One round: these scouts cannot read a
 * block (it is Python that checks and unpacks it), so they want every block they meet, and the
 * rounds that read what came are Python's (scoutAhead); the ranges already kept are not asked
 * again.  Once
 * the problem is judged this is noted among the kept spans (its mark), and a later visit runs
 * no such scouts.  A promise of {requests, bytes, seconds, rounds, wanted, mark, began, ended},
 * never rejected. */
function scoutEarly(base, variant, fen, seconds, pagesAsked, id) {
  var spans = kept[variant];
  var line = rootLine(variant, fen, seconds || EARLY_SECONDS, EARLY_NODES);
  if (!spans || !prover || !line) {
    return Promise.resolve(NO_EARLY);
  }
  var mark = "early-" + hex(sha256(new TextEncoder().encode(line)));
  return Promise.all([prover, pagesAsked, spans.ready])
    .then(function (parts) {
      var found = parts[0];
      var manifest = manifests[variant];
      if (!found || !manifest || spans.get(mark, 0, 0)) {
        return NO_EARLY;
      }
      var lists = {};
      var pageList = function (name) {
        if (!(name in lists)) {
          var entry = manifest.classes[name];
          var pages = entry ? Math.ceil(entry.blocks / manifest.page) : 0;
          var size = pages * pageEntryBytes(manifest.page);
          var bytes = entry ? spans.get(name + ".pages", 0, size) : null;
          /* checked as Python will check it: a page list that fails is not scouted by */
          lists[name] = bytes && hex(sha256(bytes)) === entry.pages ? bytes : null;
        }
        return lists[name];
      };
      var host = found.createHost(
        found.module,
        {
          blocks: function (a, b, c, d) {
            return classBlocks(manifest, a, b, c, d);
          },
          codes: function () {
            return null; /* no block is read before Python ("moves" probes without) */
          }
        },
        null
      );
      var rangeOf = function (a, b, c, d, block) {
        var name = className(a, b, c, d);
        return blockRange(manifest, name, pageList(name), block, WHOLE_BYTES);
      };
      var began = performance.now();
      var session = host.open(variant, 1);
      var moves;
      try {
        moves = String(session.request(movesRequest(line)));
      } finally {
        session.close();
      }
      var lines = firstLines(line, moves);
      var wanted = 0;
      var scouting = {
        host: {
          scout: function (v, mb, scoutLine, ready, enough) {
            var blocks = host.scout(v, mb, scoutLine, ready, enough);
            wanted += blocks.length;
            return blocks;
          }
        },
        rangeOf: rangeOf,
        ready: function () {
          return false;
        },
        settings: function () {
          return { rounds: 1, gap: scoutSettings().gap, enough: EARLY_ENOUGH };
        }
      };
      var folder = base + "rulebook/tables/" + variant + "/";
      var scouts = { lines: lines, mark: "" };
      return scoutRounds(variant, scouting, scouts, spans, rangeFetch(folder), told(id)).then(
        function (done) {
          return {
            requests: done.requests,
            bytes: done.bytes,
            seconds: done.seconds || (performance.now() - began) / 1000,
            rounds: done.each,
            gap: done.gap,
            wanted: wanted,
            mark: mark,
            /* seconds since the worker started: when these scouts began and ended */
            began: began / 1000,
            ended: performance.now() / 1000
          };
        }
      );
    })
    .catch(function () {
      return NO_EARLY;
    });
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
  /* the project's Python (compiled to bytecode at build time) is asked beside Pyodide, not
   * after it: one round trip less before the checker is ready */
  var bundle = fetch(base + "rulebook/rulebook-python.zip").then(function (response) {
    if (!response.ok) {
      throw new Error("the checker's Python files are missing: " + response.status);
    }
    return response.arrayBuffer();
  });
  bundle.then(function () {
    pythonStages.bundle = performance.now() / 1000;
  }, function () {}); /* a failure is said below, once Pyodide is there */
  return import(base + pyodide + "pyodide.mjs")
    .then(function (module) {
      pythonStages.script = performance.now() / 1000;
      return module.loadPyodide({ indexURL: base + pyodide });
    })
    .then(function (py) {
      pythonStages.pyodide = performance.now() / 1000;
      return bundle.then(function (buffer) {
        py.unpackArchive(buffer, "zip", { extractDir: "/home/pyodide/rulebook" });
        pythonStages.unpacked = performance.now() / 1000;
        self.pyodide = py;
        py.runPython(
          "import sys\n" +
            "sys.path.insert(0, '/home/pyodide/rulebook')\n" +
            "import rulebook_build.checkpage.entry\n"
        );
        self.postMessage({ ready: true });
        pythonAt = performance.now() / 1000;
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
  if (message.op === "ahead") {
    /* the page has a problem and will check it (a link with run=1): its tables asked now */
    var found = aheadOf(message.args[0]);
    if (found) {
      var pages = prefetchPages(message.base, found.variant, found.fen, message.tables, message.id);
      earlyScout = scoutEarly(
        message.base,
        found.variant,
        found.fen,
        message.args[1],
        pages,
        message.id
      );
    }
    return;
  }
  if (message.op === "start") {
    Object.keys(message.tables || {}).forEach(function (variant) {
      manifestOf(message.base, variant, message.tables[variant]).catch(function () {
        /* openTables says what failed */
      });
    });
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
  var scouts = null;
  var early = null;
  var beforePython = null; /* what scoutEarly fetched, where this check followed an "ahead" */
  if (message.op === "check") {
    var asked = { fen: "", variant: variantOf(message.args[0]) };
    try {
      asked.fen = JSON.parse(message.args[0]).fen;
    } catch (error) {
      asked.fen = "";
    }
    early = prefetchPages(message.base, asked.variant, asked.fen, message.tables, message.id);
  }
  python
    .then(function (api) {
      if (message.op !== "check") {
        return api;
      }
      var variant = variantOf(message.args[0]);
      var expected = (message.tables || {})[variant];
      var spans = kept[variant];
      var before = earlyScout;
      earlyScout = null; /* one check reports it */
      return Promise.all([openTables(api, message.base, variant, expected), early, before])
        .then(function (parts) {
          tablesSaid = parts[0];
          prefetched = parts[1];
          beforePython = parts[2];
          if (!spans || !manifests[variant] || tablesSaid.error) {
            return null;
          }
          var folder = message.base + "rulebook/tables/" + variant + "/";
          scouts = scoutLines(api, variant, message.args[0], message.args[1]);
          return scoutAhead(api, variant, scouts, spans, rangeFetch(folder), told(message.id)).then(
            function (scouted) {
              var first = beforePython || NO_EARLY;
              prefetched = {
                requests: prefetched.requests + first.requests + scouted.requests,
                bytes: prefetched.bytes + first.bytes + scouted.bytes,
                early: {
                  requests: first.requests,
                  bytes: first.bytes,
                  seconds: first.seconds,
                  rounds: first.rounds,
                  gap: first.gap,
                  wanted: first.wanted,
                  began: first.began,
                  ended: first.ended,
                  python: pythonAt
                },
                scouted: scouted.requests,
                scout_rounds: scouted.rounds,
                scout_gap: scouted.gap,
                scout_seconds: scouted.seconds,
                scout_rounds_seconds: scouted.each
              };
              return spans.flush();
            }
          );
        })
        .then(function () {
          return api;
        });
    })
    .then(function (api) {
      var result;
      /* the check's record with the worker's counts, posted once what was fetched is kept */
      var finish = function (result, check) {
        var record = JSON.parse(result);
        if (record.report) {
          record.report.downloaded = reader.downloaded - before[0];
          record.report.requests = reader.requests - before[1];
          record.report.fetch_seconds = (fetching - before[2]) / 1000;
          record.report.tables_error = tablesSaid && tablesSaid.error ? tablesSaid.error : null;
          record.report.prefetched = prefetched;
          record.report.scouted_during = check.during;
          /* seconds of the worker's life: Python ready, the judgement's start and end */
          record.report.python_at = pythonAt;
          record.report.python_stages = pythonStages;
          record.report.worker_origin = performance.timeOrigin; /* ms since 1970: its birth */
          record.report.judged = [check.began, performance.now() / 1000];
          var spans = kept[variantOf(message.args[0])];
          var damaged =
            record.report.kept_refused > 0 ||
            (record.report.table_faults || []).some(function (fault) {
              return fault.kind === "checksum";
            });
          if (spans && scouts && !damaged) {
            spans.put(scouts.mark, 0, 0, new Uint8Array(0)); /* judged: no scouts next time */
            if (beforePython && beforePython.mark) {
              spans.put(beforePython.mark, 0, 0, new Uint8Array(0));
            }
          }
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
        self.postMessage({ id: message.id, result: JSON.stringify(record) });
        return null;
      };
      if (message.op === "check") {
        var before = [reader.downloaded, reader.requests, fetching];
        current = {
          id: message.id,
          nodes: 0,
          stage: "",
          downloaded: reader.downloaded,
          prefetched: prefetched.bytes,
          during: { requests: 0, bytes: 0, seconds: 0, searches: 0 },
          began: performance.now() / 1000, /* seconds of the worker's life */
          /* its blocks all kept by an earlier judgement of it: no scouts */
          judgedBefore: !!(scouts && kept[variantOf(message.args[0])].get(scouts.mark, 0, 0))
        };
        var check = current;
        var progress = function (text) {
          check.stage = String(text);
          self.postMessage({ id: message.id, progress: { nodes: check.nodes, stage: check.stage } });
        };
        var counted = function (count) {
          check.nodes = Number(count);
          self.postMessage({ id: message.id, progress: { nodes: check.nodes, stage: check.stage } });
        };
        var asked = [message.args[0], message.args[1], message.args[2], progress, counted];
        /* where the browser can suspend WebAssembly on a promise (JSPI), Python may wait for
         * the scouts before each search (tables.py _ScoutedHost): the call must be a promising
         * one; elsewhere the judgement runs as one synchronous call */
        var judged =
          typeof WebAssembly.Suspending === "function" && typeof api.check.callPromising === "function"
            ? api.check.callPromising.apply(api.check, asked)
            : Promise.resolve().then(function () {
                return api.check.apply(null, asked);
              });
        return judged.then(
          function (result) {
            current = null;
            return finish(String(result), check);
          },
          function (error) {
            current = null;
            throw error;
          }
        );
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
