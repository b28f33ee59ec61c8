/*
 * rulebook_build: the host of the compiled proof search (native/prover.c built for wasm32-wasi,
 * rulebook_build/engine/wasm.py) in the check page's worker.
 *
 * The module is a WASI "reactor": a session is a new instance (fresh memory), opened with
 * rb_open(variant, table MB); each request line of "prover serve" is written into
 * rb_request_buffer and answered by rb_request on standard output.  It reads no files: the
 * endgame tables come from the Python side (rulebook_build/engine/tables/remote.py), which
 * fetches each block by a Range request and checks it against its SHA-256 before the module
 * sees it.  Every answer goes back to Python, which walks its proof tree with the Python
 * engine before it counts.
 *
 * createHost(module, tables, onProgress) -> {open(variant, tableMb) -> {request(line), close()},
 *   scout(variant, tableMb, line, ready, enough) -> [[a, b, c, d, block], ...]}
 *   module: a compiled WebAssembly.Module; tables: {blocks(a, b, c, d) -> number of blocks,
 *   codes(a, b, c, d, block) -> Uint8Array or null}; onProgress(nodes) every 65,536 nodes.
 *
 * scout: the request `line` run once in a fresh instance that never waits for the network:
 * a block for which ready(a, b, c, d, block) is false is noted as wanted and answered "not
 * here yet" (-2: the search takes the position as settled by its material and searches no
 * further below it, prover.c pending_guess), and once `enough` blocks are wanted the search's
 * clock jumps past its limit,
 * so that it stops (what it would ask after that are guesses of a search without the values).
 * Returns the blocks wanted, in the order first wanted.  Its answer is thrown away: a scout
 * tells the worker which blocks to fetch, several at a time, before the judgement's own
 * searches (which wait for each block they lack) ask for them; tests/checker/wasm_host.py
 * scouts the same way under wasmtime.
 *
 * The imports are the six WASI calls the module makes (standard output and error, a clock,
 * exit) and the three of env; tests/checker/wasm_host.py gives the same ones under wasmtime.
 */

var ESPIPE = 70;
var EBADF = 8;
var VARIANTS = { international: 0, frisian: 1 };

export function createHost(module, tables, onProgress) {
  return {
    open: function (variant, tableMb) {
      return openSession(module, tables, onProgress, String(variant), Number(tableMb), null);
    },
    scout: function (variant, tableMb, line, ready, enough) {
      var scouting = { ready: ready, enough: Number(enough), wanted: [], seen: {}, jumps: 0 };
      var session = openSession(module, tables, null, String(variant), Number(tableMb), scouting);
      try {
        session.request(line);
      } finally {
        session.close();
      }
      return scouting.wanted;
    }
  };
}

function openSession(module, tables, onProgress, variant, tableMb, scouting) {
  var memory = null;
  var waited = 0; /* milliseconds spent waiting for table blocks, left out of the clock */
  var output = [];
  var errors = [];
  var decoder = new TextDecoder();

  /* what ask() returns, the time it took left out of the search's clock */
  function unclocked(ask) {
    var asked = performance.now();
    try {
      return ask();
    } finally {
      waited += performance.now() - asked;
    }
  }

  function view() {
    return new DataView(memory.buffer);
  }

  var wasi = {
    fd_write: function (fd, iovs, count, written) {
      var data = view();
      var total = 0;
      for (var i = 0; i < count; i++) {
        var base = data.getUint32(iovs + 8 * i, true);
        var length = data.getUint32(iovs + 8 * i + 4, true);
        var bytes = new Uint8Array(memory.buffer, base, length).slice();
        (fd === 1 ? output : errors).push(bytes);
        total += length;
      }
      data.setUint32(written, total, true);
      return fd === 1 || fd === 2 ? 0 : EBADF;
    },
    fd_close: function () {
      return 0;
    },
    fd_seek: function () {
      return ESPIPE;
    },
    fd_fdstat_get: function (fd, at) {
      var data = view();
      data.setUint8(at, 2); /* a character device */
      data.setUint16(at + 2, 0, true);
      data.setBigUint64(at + 8, 0xffffffffffffffffn, true);
      data.setBigUint64(at + 16, 0n, true);
      return 0;
    },
    clock_time_get: function (id, precision, at) {
      /* the search's clock leaves out the waits for table blocks: its wall limit is there to
         stop a stuck program, and a search counted in work (--deterministic) must take the
         same steps however slow the host serving the tables is (the fetches have their own
         timeouts, table-fetch.js) */
      var nanoseconds = BigInt(Math.round((performance.now() - waited) * 1e6));
      if (scouting && scouting.jumps) {
        /* a scout that wants enough blocks: each reading of its clock is far past its limit */
        nanoseconds += BigInt(scouting.jumps) * 1000000000000000n;
        scouting.jumps += 1;
      }
      view().setBigUint64(at, nanoseconds, true);
      return 0;
    },
    proc_exit: function (code) {
      throw new Error("the search stopped (exit " + code + "): " + decoder.decode(join(errors)));
    }
  };
  var env = {
    rb_table_blocks: function (a, b, c, d) {
      return Number(unclocked(function () {
        return tables.blocks(a, b, c, d);
      })) | 0;
    },
    rb_table_block: function (a, b, c, d, block, at) {
      if (scouting && !scouting.ready(a, b, c, d, block)) {
        var key = [a, b, c, d, block].join(",");
        if (!scouting.seen[key]) {
          scouting.seen[key] = true;
          scouting.wanted.push([a, b, c, d, block]);
        }
        if (scouting.wanted.length >= scouting.enough && !scouting.jumps) {
          scouting.jumps = 1;
        }
        return -2; /* not here yet: the scout guesses (prover.c pending_guess) */
      }
      var codes = unclocked(function () {
        return tables.codes(a, b, c, d, block);
      });
      if (!codes) {
        return -1;
      }
      new Uint8Array(memory.buffer, at, codes.length).set(codes);
      return codes.length;
    },
    rb_progress: function (nodes) {
      if (onProgress) {
        onProgress(nodes);
      }
    }
  };
  var instance = new WebAssembly.Instance(module, {
    wasi_snapshot_preview1: wasi,
    env: env
  });
  memory = instance.exports.memory;
  instance.exports._initialize();
  if (!(variant in VARIANTS) || instance.exports.rb_open(VARIANTS[variant], tableMb) !== 1) {
    throw new Error("the search could not open a session for " + variant);
  }
  var buffer = instance.exports.rb_request_buffer();
  var encoder = new TextEncoder();
  return {
    request: function (line) {
      var bytes = encoder.encode(String(line) + "\n\0");
      if (bytes.length > 512) {
        throw new Error("a request longer than the search reads");
      }
      new Uint8Array(memory.buffer, buffer, bytes.length).set(bytes);
      output = [];
      instance.exports.rb_request();
      return decoder.decode(join(output));
    },
    close: function () {
      instance = null;
      memory = null;
    }
  };
}

function join(parts) {
  var length = 0;
  parts.forEach(function (part) {
    length += part.length;
  });
  var all = new Uint8Array(length);
  var at = 0;
  parts.forEach(function (part) {
    all.set(part, at);
    at += part.length;
  });
  return all;
}
