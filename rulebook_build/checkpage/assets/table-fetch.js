/*
 * rulebook_build: how the check page's worker (checker-worker.js) reads the site's endgame
 * tables.  A module of its own so that node runs it in the tests
 * (tests/site/test_table_fetch_js.py) as the worker runs it in the browser.
 *
 * sha256(bytes): the SHA-256 of a Uint8Array (FIPS 180-4), in plain JavaScript.  The browser's
 *   own (crypto.subtle) exists only in a secure context, HTTPS or localhost: a club's intranet
 *   or a test server on plain HTTP has none, and the tables would go unchecked or unread.
 * checkedManifest(bytes, expected): the manifest's text when its SHA-256 is the hex digest
 *   the page carries (expected), else an Error saying it does not match.
 * rangeReader(send, attempts, whole): fetchRange(url, start, end), the bytes [start, end) of
 *   url, whatever the host answers: a 206 of the right length is the answer; a 200 is the
 *   whole file (a host that ignores Range), kept in `whole` (the worker's WHOLE_FILES, which
 *   its prefetches share) and sliced, then and afterwards; a timeout, a lost
 *   connection, a 5xx, a 408 or 429, or a body of another length is tried again, `attempts`
 *   times in all; anything else (a 404) throws at once, as the last failed try does.  Python
 *   (engine/tables/remote.py) then leaves the class out of the judgement and says so, and
 *   checks every block it does get against its SHA-256 before use.
 * fetchWhole(url, attempts): a promise of the whole file at url (a manifest), asked again
 *   on a lost connection or an answer that may pass (5xx, 408, 429), `attempts` times in all.
 * xhrSend(timeout): the worker's `send`: one synchronous Range request (allowed in a worker),
 *   given up after `timeout` milliseconds; {status, body} or {failure}.
 */

var K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
]);

function rotate(x, n) {
  return (x >>> n) | (x << (32 - n));
}

export function sha256(bytes) {
  var length = bytes.length;
  var padded = new Uint8Array((((length + 8) >> 6) + 1) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  var view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000)); /* length * 8, high */
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  var h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
  ]);
  var w = new Uint32Array(64);
  for (var offset = 0; offset < padded.length; offset += 64) {
    var i;
    for (i = 0; i < 16; i++) {
      w[i] = view.getUint32(offset + 4 * i);
    }
    for (i = 16; i < 64; i++) {
      var x = w[i - 15];
      var y = w[i - 2];
      var s0 = rotate(x, 7) ^ rotate(x, 18) ^ (x >>> 3);
      var s1 = rotate(y, 17) ^ rotate(y, 19) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (i = 0; i < 64; i++) {
      var sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25);
      var t1 = (k + sum1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      var t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
  }
  var digest = new Uint8Array(32);
  var out = new DataView(digest.buffer);
  for (var j = 0; j < 8; j++) {
    out.setUint32(4 * j, h[j]);
  }
  return digest;
}

export function hex(bytes) {
  return Array.from(bytes)
    .map(function (byte) {
      return byte.toString(16).padStart(2, "0");
    })
    .join("");
}

export function checkedManifest(bytes, expected, name) {
  if (!expected || hex(sha256(bytes)) !== expected) {
    throw new Error((name || "the manifest") + " does not match its checksum");
  }
  return new TextDecoder().decode(bytes);
}

/* a failure that may pass if the request is made again */
function transient(status) {
  return status >= 500 || status === 408 || status === 429 || status === 0;
}

/* url -> the whole file, where the host answered a Range request with it (200): the worker
 * hands this one to its Range reader and its prefetches, so that both read such a file from
 * here afterwards */
export var WHOLE_FILES = {};

export function rangeReader(send, attempts, whole) {
  whole = whole || {};
  var reader = function (url, start, end) {
    if (whole[url]) {
      return whole[url].slice(start, end);
    }
    var said = "";
    for (var attempt = 0; attempt < attempts; attempt++) {
      var answer = send(url, start, end);
      reader.requests += 1;
      if (answer.body) {
        reader.downloaded += answer.body.length;
      }
      if (answer.failure) {
        said = answer.failure; /* a timeout, a lost connection: tried again */
      } else if (answer.status === 206 && answer.body.length === end - start) {
        return answer.body;
      } else if (answer.status === 200 && answer.body.length >= end) {
        whole[url] = answer.body;
        return answer.body.slice(start, end);
      } else if (answer.status === 206 || answer.status === 200) {
        said = answer.body.length + " bytes where " + (end - start) + " were asked";
      } else {
        said = "HTTP " + answer.status;
        if (!transient(answer.status)) {
          break;
        }
      }
    }
    throw new Error(url.slice(url.lastIndexOf("/") + 1) + ": " + said);
  };
  reader.requests = 0;
  reader.downloaded = 0;
  return reader;
}

export function xhrSend(timeout) {
  return function (url, start, end) {
    var request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.responseType = "arraybuffer";
    request.timeout = timeout;
    request.setRequestHeader("Range", "bytes=" + start + "-" + (end - 1));
    try {
      request.send(null);
    } catch (error) {
      var name = error && error.name;
      var late = name === "TimeoutError";
      return { failure: late ? "timed out after " + timeout / 1000 + " s" : String(name || error) };
    }
    var body = request.response ? new Uint8Array(request.response) : new Uint8Array(0);
    return { status: request.status, body: body };
  };
}

export function fetchWhole(url, attempts) {
  var name = url.slice(url.lastIndexOf("/") + 1);
  var attempt = function (left) {
    return fetch(url).then(
      function (response) {
        if (response.ok) {
          return response.arrayBuffer().then(function (buffer) {
            return new Uint8Array(buffer);
          });
        }
        if (left > 1 && transient(response.status)) {
          return attempt(left - 1);
        }
        throw new Error(name + ": HTTP " + response.status);
      },
      function (error) {
        if (left > 1) {
          return attempt(left - 1); /* a lost connection */
        }
        throw new Error(name + ": " + String((error && error.message) || error));
      }
    );
  };
  return attempt(attempts);
}

/*
 * Kept spans: every range of a table file the worker fetched (and any range inside one), in memory for the checks of
 * this visit and in the browser's storage for the next visits (IndexedDB: the HTTP cache keeps
 * what the host's headers allow, and a host that says "revalidate" costs a round trip a block
 * even for what the browser has).  Keyed by the SHA-256 of the variant's manifest, so a new
 * table set never reads an old one's bytes: what is kept for a digest the page no longer
 * carries is deleted when the worker starts.  Nothing here is trusted more than the network:
 * Python checks every block it reads against the manifest's chain of SHA-256 (a page list
 * against the manifest, a page's sums against the list, a block against its sum) whether
 * it came from the host or from here, and after a check that met a block failing its checksum
 * the worker forgets everything kept for that table set (checker-worker.js).
 *
 * keptSpans(backend, digest): {ready (a promise), get(name, start, end), put(name, start,
 *   end, bytes), drop(name, start, end), flush() (a promise: the new spans saved), forget()
 *   (a promise), bytes}
 * backend: {load(digest) -> promise of [{name, start, end, bytes}], save(digest, spans),
 *   forget(digest)}: indexedDbBackend(indexedDB, keep) in the browser, a Map in the tests.
 */

function spanKey(name, start, end) {
  return name + "|" + start + "|" + end;
}

/* a span the host refused for good (a 404) while it was prefetched: refused again at once,
 * with the words the Range reader would have said, and never asked of the host a second time */
function refusal(message) {
  var error = new Error(message);
  error.final = true;
  return error;
}

export function keptSpans(backend, digest) {
  var memory = new Map();
  var byName = new Map(); /* name -> [{start, end, bytes}]: a range inside a kept one is found */
  var refused = new Map(); /* this visit only: a host may have the file tomorrow */
  var asked = new Map(); /* spans under way (prefetch): a second prefetch waits for the first */
  var fresh = [];
  function remember(name, start, end, bytes) {
    var key = spanKey(name, start, end);
    if (memory.has(key)) {
      return false;
    }
    memory.set(key, bytes);
    if (!byName.has(name)) {
      byName.set(name, []);
    }
    byName.get(name).push({ start: start, end: end, bytes: bytes });
    kept.bytes += bytes.length;
    return true;
  }
  var kept = {
    bytes: 0,
    get: function (name, start, end) {
      var found = memory.get(spanKey(name, start, end));
      if (found) {
        return found;
      }
      var spans = byName.get(name) || [];
      for (var i = 0; i < spans.length; i++) {
        var span = spans[i];
        if (span.start <= start && end <= span.end && span.bytes.length === span.end - span.start) {
          return span.bytes.subarray(start - span.start, end - span.start);
        }
      }
      return undefined;
    },
    refuse: function (name, start, end, message) {
      refused.set(spanKey(name, start, end), message);
    },
    refused: function (name, start, end) {
      return refused.get(spanKey(name, start, end));
    },
    drop: function (name, start, end) {
      /* bytes that failed their checksum: never served again, nor the span that held them
       * (the worker then forgets the whole set in storage too) */
      var spans = byName.get(name) || [];
      byName.set(
        name,
        spans.filter(function (span) {
          if (span.start <= start && end <= span.end) {
            memory.delete(spanKey(name, span.start, span.end));
            kept.bytes -= span.bytes.length;
            return false;
          }
          return true;
        })
      );
    },
    pending: function (name, start, end) {
      return asked.get(spanKey(name, start, end));
    },
    asking: function (name, start, end, job) {
      var key = spanKey(name, start, end);
      asked.set(key, job);
      job.then(function () {
        asked.delete(key);
      });
    },
    put: function (name, start, end, bytes) {
      if (remember(name, start, end, bytes)) {
        fresh.push({ name: name, start: start, end: end, bytes: bytes });
      }
    },
    flush: function () {
      var spans = fresh.splice(0);
      return spans.length && digest ? backend.save(digest, spans) : Promise.resolve();
    },
    forget: function () {
      memory.clear();
      byName.clear();
      fresh = [];
      kept.bytes = 0;
      return digest ? backend.forget(digest) : Promise.resolve();
    }
  };
  kept.ready = (digest ? backend.load(digest) : Promise.resolve([]))
    .then(function (spans) {
      spans.forEach(function (span) {
        remember(span.name, span.start, span.end, span.bytes);
      });
    })
    .catch(function () {
      /* storage refused (private browsing, quota): the network alone */
    });
  return kept;
}

/* fetch(name, start, end) that reads the kept spans first and keeps what it fetched */
export function keptFetch(kept, fetchRange) {
  return function (name, start, end) {
    var found = kept.get(name, start, end);
    if (found) {
      return found;
    }
    var refused = kept.refused(name, start, end);
    if (refused) {
      throw refusal(refused);
    }
    var bytes = fetchRange(name, start, end);
    kept.put(name, start, end, bytes);
    return bytes;
  };
}

/*
 * What a check will certainly ask before its first block: the page list (.pages) of every
 * class it may probe, and the whole .blocks of a class small enough to be fetched whole
 * (remote.py's WHOLE_BYTES), asked as remote.py asks them (the same ranges), so that the
 * search finds them kept.  The classes a position may probe are those its material can come
 * to by captures and promotions: no more men of a side than it has, no more pieces.
 *
 * tablesToPrefetch(manifest, fen, whole): [{name, start, end}] not yet kept.
 * mergedRanges(ranges, gap): the ranges with those of one file at most `gap` bytes apart
 *   joined, so that a scout's blocks of one page come in one request.
 * prefetch(spans, kept, fetchAsync, inFlight, onProgress): fetches them, `inFlight` at a
 *   time, each kept as it arrives; onProgress(doneBytes, totalBytes).  A span another
 *   prefetch is already fetching is waited for, not asked again.  A failure that may pass
 *   is left to the search, which asks again (and reports what it could not have); a final one
 *   (an error with `final`, as rangeFetch throws for a 404) is kept as a refusal, which the
 *   search meets at once, in the Range reader's words, without asking the host again.
 */
/* remote.py page_entry: a page's offset, its streams' lengths, the SHA-256 of its sums */
export function pageEntryBytes(page) {
  return 8 + 4 * page + 32;
}
export var SUM_BYTES = 32; /* remote.py DIGEST: a block's SHA-256 in its page's sums */

export function materialOf(fen) {
  var count = { W: [0, 0], B: [0, 0] };
  String(fen)
    .split(":")
    .slice(1)
    .forEach(function (part) {
      var side = count[part.charAt(0)];
      if (!side) {
        return;
      }
      part
        .slice(1)
        .split(",")
        .forEach(function (item) {
          item = item.trim();
          if (/^K?[0-9]+$/.test(item)) {
            side[item.charAt(0) === "K" ? 1 : 0] += 1;
          }
        });
    });
  return [count.W[0], count.W[1], count.B[0], count.B[1]];
}

function reachable(from, to) {
  return (
    to[0] <= from[0] &&
    to[0] + to[1] <= from[0] + from[1] &&
    to[2] <= from[2] &&
    to[2] + to[3] <= from[2] + from[3]
  );
}

export function tablesToPrefetch(manifest, fen, whole) {
  var start = materialOf(fen);
  var wanted = [];
  Object.keys(manifest.classes || {})
    .sort()
    .forEach(function (name) {
      var match = /^m(\d+)k(\d+)-m(\d+)k(\d+)$/.exec(name);
      if (!match) {
        return;
      }
      var material = match.slice(1).map(Number);
      /* either side may be to move: a class and its colours swapped */
      var swapped = [material[2], material[3], material[0], material[1]];
      if (!reachable(start, material) && !reachable(start, swapped)) {
        return;
      }
      var entry = manifest.classes[name];
      var pages = Math.ceil(entry.blocks / manifest.page);
      wanted.push({ name: name + ".pages", start: 0, end: pages * pageEntryBytes(manifest.page) });
      if (entry.bytes <= whole) {
        wanted.push({ name: name + ".blocks", start: 0, end: entry.bytes });
      }
    });
  return wanted;
}

/* The scouts' settings for the connection the worker's requests went over (the protocols
 * Resource Timing gives each of them: nextHopProtocol).  Over HTTP/2 or 3 the browser sends
 * all its requests together, so the scouts ask for their blocks alone (a gap of 4 KB joins a
 * block's stream with its page's sums) and run more rounds of more blocks: the judgement then
 * finds nearly all it reads fetched, for far fewer bytes than wide ranges bring.  Over HTTP/1.x
 * the browser opens six connections to a host and queues the rest, so every request is a
 * round trip in six: the scouts ask fewer, wider ranges (64 KB gaps), whose neighbours the
 * judgement reads without waiting (benchmarks/README.md, "One request of a file at a time").
 * Where no protocol is known yet, the first: most hosts serve HTTP/2. */
export var SCOUTING = Object.freeze({
  together: Object.freeze({ rounds: 6, enough: 1024, gap: 4096 }),
  sixAtOnce: Object.freeze({ rounds: 4, enough: 512, gap: 65536 })
});

export function scoutingFor(protocols) {
  var known = (protocols || []).filter(function (protocol) {
    return !!protocol;
  });
  var sixAtOnce =
    known.length > 0 &&
    known.every(function (protocol) {
      return /^http\/1/i.test(protocol);
    });
  return sixAtOnce ? SCOUTING.sixAtOnce : SCOUTING.together;
}

/* ranges [{name, start, end}] with those of one file at most `gap` bytes apart joined into
 * one (the bytes between come too), sorted by file and start */
export function mergedRanges(ranges, gap) {
  var sorted = ranges.slice().sort(function (x, y) {
    return x.name < y.name ? -1 : x.name > y.name ? 1 : x.start - y.start;
  });
  var merged = [];
  sorted.forEach(function (range) {
    var last = merged[merged.length - 1];
    if (last && last.name === range.name && range.start <= last.end + gap) {
      last.end = Math.max(last.end, range.end);
    } else {
      merged.push({ name: range.name, start: range.start, end: range.end });
    }
  });
  return merged;
}

export function prefetch(spans, kept, fetchAsync, inFlight, onProgress) {
  var missing = spans.filter(function (span) {
    /* kept, or refused for good by an earlier prefetch (a 404): not asked */
    return (
      !kept.get(span.name, span.start, span.end) && !kept.refused(span.name, span.start, span.end)
    );
  });
  var total = missing.reduce(function (sum, span) {
    return sum + span.end - span.start;
  }, 0);
  var done = 0;
  var next = 0;
  if (onProgress) {
    onProgress(0, total);
  }
  function worker() {
    if (next >= missing.length) {
      return Promise.resolve();
    }
    var span = missing[next++];
    var job = kept.pending && kept.pending(span.name, span.start, span.end);
    if (!job) {
      job = fetchAsync(span.name, span.start, span.end).then(
        function (bytes) {
          if (bytes && bytes.length === span.end - span.start) {
            kept.put(span.name, span.start, span.end, bytes);
          }
        },
        function (error) {
          /* a failure that may pass: the search asks again, and says what it could not have;
           * a final one (a 404) is kept as such, so that the host is not asked twice */
          if (error && error.final) {
            kept.refuse(span.name, span.start, span.end, error.message);
          }
        }
      );
      if (kept.asking) {
        kept.asking(span.name, span.start, span.end, job);
      }
    }
    return job
      .then(function () {
        done += span.end - span.start;
        if (onProgress) {
          onProgress(done, total);
        }
        return worker();
      });
  }
  var workers = [];
  for (var i = 0; i < Math.min(inFlight, missing.length); i++) {
    workers.push(worker());
  }
  return Promise.all(workers).then(function () {
    return { requests: missing.length, bytes: total };
  });
}

/* url -> a promise that settles when the request of that file in flight is answered, or OPEN
 * once one was answered at all: until then the others wait, so that a host sending whole files
 * sends each once; a request that failed (a 503, a lost connection) opens nothing, and the
 * next one waiting asks in its turn while the rest go on waiting */
var FIRST_ANSWERED = {};
var OPEN = "open";

/* fetchAsync for prefetch(): one Range request with fetch(), {Uint8Array} of the range.  A
 * host that sends the whole file (200) is sliced, and the file kept for every later request of
 * it (the search's too: rangeReader); until a file's first request is answered, the others for
 * it wait, so such a host sends it once.  The request passes the browser's HTTP cache by
 * (cache: "no-store"): Chromium's cache lets one request of a URL through at a time, so the
 * scouts' ranges of one file went one after another, a round trip each, however many were in
 * flight; what is fetched is kept by the page itself (keptSpans), verified and keyed by the
 * table set's digest, whatever the host's headers. */
export function rangeFetch(folder, whole) {
  whole = whole || WHOLE_FILES;
  return function (name, start, end) {
    var url = folder + name;
    var ask = function () {
      if (whole[url]) {
        return Promise.resolve(whole[url].slice(start, end));
      }
      return fetch(url, {
        cache: "no-store",
        headers: { Range: "bytes=" + start + "-" + (end - 1) }
      }).then(
        function (response) {
          if (response.status !== 206 && response.status !== 200) {
            var error = new Error(name + ": HTTP " + response.status);
            error.final = !transient(response.status);
            throw error;
          }
          return response.arrayBuffer().then(function (buffer) {
            var bytes = new Uint8Array(buffer);
            if (response.status === 200) {
              whole[url] = bytes;
              return bytes.slice(start, end);
            }
            return bytes;
          });
        }
      );
    };
    var turn = function () {
      var gate = FIRST_ANSWERED[url];
      if (gate === OPEN || whole[url]) {
        return ask();
      }
      if (gate instanceof Error) {
        return Promise.reject(gate);
      }
      if (gate) {
        return gate.then(turn);
      }
      var first = ask();
      FIRST_ANSWERED[url] = first.then(
        function () {
          FIRST_ANSWERED[url] = OPEN;
        },
        function (error) {
          /* a 404 is final for every range of the file: the others are refused by the same
           * answer without asking; anything else lets the next one ask */
          FIRST_ANSWERED[url] = error && error.final ? error : undefined;
        }
      );
      return first;
    };
    return turn();
  };
}

/* The browser's backend of keptSpans: one IndexedDB store, each span under
 * "<digest>|<name>|<start>|<end>"; what belongs to no digest in `keep` is deleted on open. */
var DATABASE = "rulebook-tables";
var STORE = "spans";

function request(done) {
  return new Promise(function (resolve, reject) {
    done.onsuccess = function () {
      resolve(done.result);
    };
    done.onerror = function () {
      reject(done.error);
    };
  });
}

export function indexedDbBackend(idb, keep) {
  var opened = null;
  function database() {
    if (!opened) {
      var asked = idb.open(DATABASE, 1);
      asked.onupgradeneeded = function () {
        asked.result.createObjectStore(STORE);
      };
      opened = request(asked).then(function (db) {
        /* a table set the page no longer carries: its bytes go */
        var store = db.transaction(STORE, "readwrite").objectStore(STORE);
        return request(store.getAllKeys()).then(function (keys) {
          keys.forEach(function (key) {
            if (keep.indexOf(String(key).split("|")[0]) < 0) {
              store.delete(key);
            }
          });
          return db;
        });
      });
    }
    return opened;
  }
  function range(digest) {
    return IDBKeyRange.bound(digest + "|", digest + "|\uffff");
  }
  return {
    load: function (digest) {
      return database()
        .then(function (db) {
          var store = db.transaction(STORE, "readonly").objectStore(STORE);
          return Promise.all([
            request(store.getAllKeys(range(digest))),
            request(store.getAll(range(digest)))
          ]);
        })
        .then(function (found) {
          return found[0].map(function (key, index) {
            var parts = String(key).split("|");
            return {
              name: parts[1],
              start: Number(parts[2]),
              end: Number(parts[3]),
              bytes: new Uint8Array(found[1][index])
            };
          });
        });
    },
    save: function (digest, spans) {
      return database().then(function (db) {
        var transaction = db.transaction(STORE, "readwrite");
        var store = transaction.objectStore(STORE);
        spans.forEach(function (span) {
          store.put(span.bytes.slice().buffer, [digest, span.name, span.start, span.end].join("|"));
        });
        return new Promise(function (resolve, reject) {
          transaction.oncomplete = resolve;
          transaction.onerror = function () {
            reject(transaction.error);
          };
        });
      });
    },
    forget: function (digest) {
      return database().then(function (db) {
        return request(db.transaction(STORE, "readwrite").objectStore(STORE).delete(range(digest)));
      });
    }
  };
}
