/*
 * rulebook_build: the check page's scouts before Python is there (checker-worker.js).
 *
 * A link that opens the page with a problem and run=1 leaves the worker some seconds of
 * loading Pyodide before the judgement can start; the compiled search is loaded far sooner
 * (it is some hundreds of kilobytes).  In those seconds scouts of the judgement's first
 * searches (the positions after each first move, which the compiled search's "moves" request
 * gives, run in instances that never wait: prover-host.js scout) tell which blocks of the
 * tables to fetch, so that the scouts after Python and the judgement find them kept.  What
 * Python gives the later scouts is worked out here from the page's own data:
 *
 * rootLine(variant, fen, seconds, nodes): the request line of the position the PDN FEN gives
 *   ("solve SECONDS NODES WM WK BM BK FIELDS"), as engine/binaries.py node_words writes it with
 *   the clocks rules/drawrules.py initial_clocks gives; null for a FEN it cannot read.
 * blockRange(manifest, name, pageList, block, whole): the ranges [[file, start, end], ...]
 *   that bring block `block` (of the compact file's 4,096 codes) of class `name`, as remote.py
 *   RemoteCompactTable.request_for gives them (its page's sums and its stream, or the whole
 *   .blocks of a class of at most `whole` bytes, remote.py WHOLE_BYTES); null where the class
 *   or its page list is not there.
 * firstLines(rootLine, answer): the request lines of the positions after each first move (the
 *   judgement's first searches, which tables.py scout_lines writes), from `answer`, what the
 *   compiled search said to "moves" and the root's node (its "child" lines: each position with
 *   its clocks after the move); each position once, in the order given.
 * className(a, b, c, d): the name of a class of material (index.py material_name).
 * classBlocks(manifest, a, b, c, d): the class's blocks of 4,096 codes (rb_table_blocks), 0 for
 *   a class the site does not publish.
 *
 * So the worker scouts as it does once Python is there, in one round: its scouts cannot read
 * a block (it is Python that checks and unpacks them), so they want every block they meet.
 * These only choose what is fetched ahead: Python checks every byte before the search reads
 * it, and the judgement asks for whatever the scouts missed (tests/site/test_early_scouts.py
 * compares both with Python's).
 */

import { pageEntryBytes, SUM_BYTES } from "./table-fetch.js";

var CODE_BLOCK = 4096; /* compact.py BLOCK */

/* rules/board.py bit_of: ten squares a row, a ghost bit after each */
function bitOf(square) {
  return BigInt(square + Math.floor((square - 1) / 10));
}

function count(bits) {
  var n = 0;
  for (; bits; bits &= bits - 1n) {
    n += 1;
  }
  return n;
}

/* {white, wm, wk, bm, bk} (bitboards as BigInt) of a PDN FEN: "W:W31,32,K12:B1-5,K46", a
 * trailing full stop allowed; null for anything else */
export function fenPieces(fen) {
  var parts = String(fen).trim().replace(/\.$/, "").split(":");
  var turn = parts[0].trim().toUpperCase();
  if (parts.length !== 3 || (turn !== "W" && turn !== "B")) {
    return null;
  }
  var pieces = { white: turn === "W", wm: 0n, wk: 0n, bm: 0n, bk: 0n };
  var taken = 0n;
  for (var i = 1; i < 3; i++) {
    var part = parts[i].trim();
    var side = part.charAt(0).toUpperCase();
    if (side !== "W" && side !== "B") {
      return null;
    }
    var items = part.slice(1).trim() ? part.slice(1).split(",") : [];
    for (var j = 0; j < items.length; j++) {
      var item = /^\s*(K?)\s*([0-9]+)(?:\s*-\s*([0-9]+))?\s*$/i.exec(items[j]);
      if (!item) {
        return null;
      }
      var first = Number(item[2]);
      var last = item[3] ? Number(item[3]) : first;
      if (first < 1 || last > 50 || first > last) {
        return null;
      }
      var kind = (side === "W" ? "w" : "b") + (item[1] ? "k" : "m");
      for (var square = first; square <= last; square++) {
        var bit = 1n << bitOf(square);
        if (taken & bit) {
          return null;
        }
        taken |= bit;
        pieces[kind] |= bit;
      }
    }
  }
  return pieces;
}

/* rules/drawrules.py lone_king_ending: "5" or "16" moves where a lone king (no men) stands
 * against kings and at most three pieces, else 0 */
function loneKingEnding(wm, wk, bm, bk) {
  var sides = [
    [wm, wk, bm, bk],
    [bm, bk, wm, wk]
  ];
  for (var i = 0; i < 2; i++) {
    var s = sides[i];
    if (s[0] === 0 && s[1] === 1 && s[3] >= 1) {
      if (s[2] + s[3] <= 2) {
        return 5;
      }
      if (s[2] + s[3] === 3) {
        return 16;
      }
    }
  }
  return 0;
}

export function rootLine(variant, fen, seconds, nodes) {
  var pieces = fenPieces(fen);
  if (!pieces) {
    return null;
  }
  var wm = count(pieces.wm);
  var wk = count(pieces.wk);
  var bm = count(pieces.bm);
  var bk = count(pieces.bk);
  var white = pieces.white ? 1 : 0;
  var fields;
  if (variant === "frisian") {
    /* no run of king moves at the start; the art. 18 count where two kings face one */
    var strong = 0;
    if (wm === 0 && bm === 0) {
      strong = wk === 2 && bk === 1 ? 1 : wk === 1 && bk === 2 ? 2 : 0;
    }
    fields = [white, 0, 0, 0, 0, strong, 0];
  } else {
    fields = [white, loneKingEnding(wm, wk, bm, bk), 0, 0];
  }
  return [
    "solve",
    Math.max(Number(seconds), 0.001).toFixed(3),
    String(nodes),
    pieces.wm.toString(16),
    pieces.wk.toString(16),
    pieces.bm.toString(16),
    pieces.bk.toString(16),
    fields.join("/")
  ].join(" ");
}

export function className(a, b, c, d) {
  return "m" + a + "k" + b + "-m" + c + "k" + d;
}

export function classBlocks(manifest, a, b, c, d) {
  var entry = (manifest.classes || {})[className(a, b, c, d)];
  return entry ? Math.ceil(entry.size / CODE_BLOCK) : 0;
}

export function blockRange(manifest, name, pageList, block, whole) {
  var entry = (manifest.classes || {})[name];
  if (!entry || block < 0 || block >= Math.ceil(entry.size / CODE_BLOCK)) {
    return null;
  }
  if (entry.bytes <= whole) {
    return [[name + ".blocks", 0, entry.bytes]];
  }
  var per = manifest.page;
  var published = Math.floor(block / (manifest.block / CODE_BLOCK));
  var page = Math.floor(published / per);
  var size = pageEntryBytes(per);
  if (!pageList || (page + 1) * size > pageList.length) {
    return null;
  }
  var data = new DataView(pageList.buffer, pageList.byteOffset, pageList.byteLength);
  var offset = Number(data.getBigUint64(page * size, true));
  var count = Math.min(per, entry.blocks - page * per);
  var start = offset + count * SUM_BYTES;
  for (var i = 0; i < published % per; i++) {
    start += data.getUint32(page * size + 8 + 4 * i, true);
  }
  var length = data.getUint32(page * size + 8 + 4 * (published % per), true);
  return [
    [name + ".blocks", offset, offset + count * SUM_BYTES],
    [name + ".blocks", start, start + length]
  ];
}

/* "moves WM WK BM BK CLOCKS" of a request line's node */
export function movesRequest(line) {
  return ["moves"].concat(String(line).split(" ").slice(3)).join(" ");
}

export function firstLines(line, answer) {
  var head = String(line).split(" ").slice(0, 3).join(" ");
  var seen = {};
  var lines = [];
  String(answer)
    .split("\n")
    .forEach(function (row) {
      var words = row.trim().split(/\s+/);
      if (words[0] !== "child" || words.length !== 6) {
        return;
      }
      var node = words.slice(1).join(" ");
      if (!seen[node]) {
        seen[node] = true;
        lines.push(head + " " + node);
      }
    });
  return lines;
}
