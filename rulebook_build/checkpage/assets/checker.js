/*
 * rulebook_build "check your problem" page.
 *
 * A board editor (click, tap or keys), the variant and the side to move, a pasted FEN or PDN
 * problem, the solution checked move by move as it is typed, the site's own solution player,
 * and the checker's verdict, all from the project's Python code running in a Web Worker
 * (checker-worker.js, Pyodide).  A link "#pdn=<url-encoded PDN>" opens the page with that
 * problem; "&run=1" starts the check at once, "&seconds=N" sets its limit.  When a check ends,
 * the report's root element carries data-verdict and data-grade with the values of
 * `rulebook check --json`.
 *
 * What arrives by link or paste is untrusted: it goes to Python as a string, and what comes
 * back is shown with textContent only.  The one piece of HTML inserted is the solution player,
 * which the project's renderer made (it escapes every text it holds).
 */
(function () {
  "use strict";

  var CYCLE = ["", "w", "b", "W", "B"];
  var DEBOUNCE_MS = 250;

  function App(root) {
    this.root = root;
    /* absolute: the worker resolves addresses against its own location, not the page's */
    this.base = new URL(root.getAttribute("data-base"), window.location.href).href;
    /* Pyodide's folder, relative to data-base: named by its version (checkpage/page.py) */
    this.pyodide = root.getAttribute("data-pyodide") || "pyodide/";
    this.lang = root.getAttribute("data-lang");
    this.strings = JSON.parse(root.querySelector(".rb-checker-strings").textContent);
    this.pieces = {};
    this.pending = {};
    this.nextId = 1;
    this.ready = false;
    this.checking = null;
    this.timer = null;
    this.find = function (selector) {
      return root.querySelector(selector);
    };
    this.squares = root.querySelectorAll(".rb-sq.rb-dark");
    this.variant = this.find(".rb-variant");
    this.toMove = this.find(".rb-to-move");
    this.solution = this.find(".rb-solution-input");
    this.progress = this.find(".rb-progress");
    this.report = this.find(".rb-check-report");
    this.checkButton = this.find(".rb-check");
    this.similarButton = this.find(".rb-similar");
    this.home = new URL(root.getAttribute("data-home"), window.location.href).href;
    this.cancelButton = this.find(".rb-cancel");
    this.forgetButton = this.find(".rb-forget");
    this.keptSize = this.find(".rb-kept-size");
    this.find(".rb-checker-app").hidden = false;
    this.bind();
    this.startWorker();
    this.paintBoard();
    this.fromHash();
  }

  App.prototype.say = function (key, values) {
    var text = this.strings[key] || key;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  };

  /* ------------------------------------------------------------------ the worker */

  App.prototype.startWorker = function () {
    var self = this;
    this.ready = false;
    this.checkButton.disabled = true;
    this.similarButton.disabled = true;
    /* what the checker needs of the browser, said where it is missing; nothing more on plain
     * HTTP than on HTTPS (the tables' SHA-256 is the worker's own, table-fetch.js) */
    var missing =
      typeof WebAssembly !== "object" ? "needs_webassembly" : typeof Worker !== "function" ? "needs_worker" : null;
    if (missing) {
      this.progress.textContent = this.say(missing);
      this.root.setAttribute("data-missing", missing);
      return;
    }
    /* the worker the page's own inline script started as the page was read (templates/
     * checker.html), once: a restart after Cancel starts a new one here */
    var early = this.root.rulebookEarlyWorker;
    this.root.rulebookEarlyWorker = null;
    this.startedEarly = !!early;
    this.worker = early
      ? early.worker
      : new Worker(this.base + "rulebook/checker-worker.js", { type: "module" });
    this.worker.onmessage = function (event) {
      self.onWorker(event.data);
    };
    this.worker.onerror = function (event) {
      self.progress.textContent = String(event.message || "worker error");
    };
    if (early) {
      /* what it said before this script came, in order; later messages come to onWorker */
      early.messages.forEach(function (message) {
        self.onWorker(message);
      });
      if (early.error) {
        this.progress.textContent = early.error;
      }
      return;
    }
    this.worker.postMessage({
      id: 0,
      base: this.base,
      pyodide: this.pyodide,
      op: "start",
      args: [],
      tables: this.strings.tables || {}
    });
  };

  /* megabytes, in the page's language */
  App.prototype.megabytes = function (bytes) {
    return (Number(bytes) / 1e6).toLocaleString(this.lang, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1
    });
  };

  /* what this browser keeps of the tables (checker-worker.js), and the button that forgets it */
  App.prototype.showKept = function (bytes) {
    this.kept = Number(bytes);
    this.keptSize.textContent = this.kept
      ? this.say("kept", { size: this.megabytes(this.kept) })
      : this.say("kept_none");
    this.forgetButton.disabled = !this.kept || !!this.checking;
  };

  App.prototype.forget = function () {
    this.forgetButton.disabled = true;
    return this.call("forget", []);
  };

  App.prototype.onWorker = function (message) {
    if (message.kept !== undefined) {
      this.showKept(message.kept);
      return;
    }
    if (message.ready) {
      this.ready = true;
      this.checkButton.disabled = false;
      this.similarButton.disabled = false;
      if (!this.checking) {
        this.progress.textContent = this.say("ready");
      }
      return;
    }
    var waiting = this.pending[message.id];
    if (!waiting) {
      if (message.failure) {
        this.progress.textContent = message.failure;
      }
      return;
    }
    if (message.progress || message.fetching) {
      if (waiting.progress) {
        waiting.progress(message.progress, message.fetching);
      }
      return;
    }
    delete this.pending[message.id];
    if (message.failure) {
      waiting.reject(new Error(message.failure));
    } else {
      waiting.resolve(JSON.parse(message.result));
    }
  };

  App.prototype.call = function (op, args, progress) {
    var self = this;
    var id = this.nextId++;
    return new Promise(function (resolve, reject) {
      if (!self.worker) {
        reject(new Error(self.say(self.root.getAttribute("data-missing") || "missing")));
        return;
      }
      self.pending[id] = { resolve: resolve, reject: reject, progress: progress };
      self.worker.postMessage({
        id: id,
        base: self.base,
        op: op,
        args: args,
        tables: self.strings.tables || {}
      });
    });
  };

  /* ------------------------------------------------------------------ the board */

  App.prototype.bind = function () {
    var self = this;
    for (var i = 0; i < this.squares.length; i++) {
      this.squares[i].addEventListener("click", function (event) {
        var square = Number(event.currentTarget.getAttribute("data-square"));
        var now = self.pieces[square] || "";
        var next = CYCLE[(CYCLE.indexOf(now) + 1) % CYCLE.length];
        if (next) {
          self.pieces[square] = next;
        } else {
          delete self.pieces[square];
        }
        self.paintBoard();
        self.changed();
      });
      this.squares[i].addEventListener("keydown", function (event) {
        self.onBoardKey(event);
      });
    }
    this.find(".rb-clear").addEventListener("click", function () {
      self.pieces = {};
      self.paintBoard();
      self.changed();
    });
    this.variant.addEventListener("change", function () {
      self.changed();
    });
    this.toMove.addEventListener("change", function () {
      self.changed();
    });
    this.solution.addEventListener("input", function () {
      self.changed();
    });
    this.find(".rb-load").addEventListener("click", function () {
      self.load(self.find(".rb-paste").value);
    });
    this.checkButton.addEventListener("click", function () {
      self.check();
    });
    this.cancelButton.addEventListener("click", function () {
      self.cancel();
    });
    this.forgetButton.addEventListener("click", function () {
      self.forget();
    });
    this.similarButton.addEventListener("click", function () {
      self.similar();
    });
    this.find(".rb-download").addEventListener("click", function () {
      self.download();
    });
    window.addEventListener("hashchange", function () {
      self.fromHash();
    });
  };

  App.prototype.onBoardKey = function (event) {
    var square = Number(event.currentTarget.getAttribute("data-square"));
    var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -5, ArrowDown: 5 }[event.key];
    if (!step) {
      return;
    }
    var target = Math.min(50, Math.max(1, square + step));
    var button = this.root.querySelector('.rb-sq[data-square="' + target + '"]');
    if (button) {
      event.currentTarget.tabIndex = -1;
      button.tabIndex = 0;
      button.focus();
    }
    event.preventDefault();
  };

  App.prototype.paintBoard = function () {
    for (var i = 0; i < this.squares.length; i++) {
      var button = this.squares[i];
      var square = Number(button.getAttribute("data-square"));
      var code = this.pieces[square] || "";
      button.setAttribute("data-piece", code);
      button.setAttribute(
        "aria-label",
        this.say("square", { square: square, piece: code ? this.say(code) : this.say("empty_square") })
      );
    }
  };

  App.prototype.fen = function () {
    var white = [];
    var black = [];
    var self = this;
    Object.keys(this.pieces)
      .map(Number)
      .sort(function (a, b) {
        return a - b;
      })
      .forEach(function (square) {
        var code = self.pieces[square];
        var text = (code === "W" || code === "B" ? "K" : "") + square;
        (code === "w" || code === "W" ? white : black).push(text);
      });
    return this.toMove.value + ":W" + white.join(",") + ":B" + black.join(",");
  };

  App.prototype.setFen = function (fen) {
    var parts = fen.split(":");
    this.pieces = {};
    this.toMove.value = parts[0] === "B" ? "B" : "W";
    for (var i = 1; i < parts.length; i++) {
      var colour = parts[i].charAt(0);
      var list = parts[i].slice(1).split(",");
      for (var j = 0; j < list.length; j++) {
        var item = list[j].trim();
        if (!item) {
          continue;
        }
        var king = item.charAt(0) === "K";
        var square = Number(king ? item.slice(1) : item);
        var code = colour === "W" ? "w" : "b";
        this.pieces[square] = king ? code.toUpperCase() : code;
      }
    }
    this.paintBoard();
  };

  App.prototype.problem = function () {
    var tags = {};
    var inputs = this.root.querySelectorAll(".rb-tag");
    for (var i = 0; i < inputs.length; i++) {
      tags[inputs[i].getAttribute("data-tag")] = inputs[i].value;
    }
    Object.keys(this.otherTags || {}).forEach(
      function (name) {
        if (!(name in tags)) {
          tags[name] = this.otherTags[name];
        }
      }.bind(this)
    );
    return JSON.stringify({
      fen: this.fen(),
      variant: this.variant.value,
      solution: this.solution.value,
      tags: tags
    });
  };

  /* ------------------------------------------------------------------ the solution */

  App.prototype.changed = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () {
      self.showMoves();
    }, DEBOUNCE_MS);
  };

  App.prototype.showMoves = function () {
    var self = this;
    var asked = this.fen() + "|" + this.variant.value + "|" + this.solution.value;
    this.asked = asked;
    return this.call("moves", [this.fen(), this.variant.value, this.solution.value, this.lang]).then(
      function (answer) {
        if (self.asked !== asked) {
          return;
        }
        var view = self.find(".rb-moves-view");
        view.textContent = "";
        var problems = [];
        (answer.moves || []).forEach(function (move, index) {
          var span = document.createElement("span");
          span.className = "rb-typed-move" + (move.legal === false ? " rb-illegal" : "");
          span.textContent = move.notation || move.text;
          if (move.legal === false) {
            span.title = move.reason;
            problems.push(self.say("illegal") + " " + move.text + ": " + move.reason);
          }
          if (index > 0) {
            view.appendChild(document.createTextNode(" "));
          }
          view.appendChild(span);
        });
        if (answer.error) {
          problems.push(answer.error.text);
        }
        problems.forEach(function (text) {
          var line = document.createElement("span");
          line.className = "rb-illegal-reason";
          line.textContent = text;
          view.appendChild(line);
        });
        var holder = self.find(".rb-checker-player");
        holder.innerHTML = answer.player || ""; /* the project's renderer made this HTML */
        if (window.rbPlayers) {
          window.rbPlayers();
        }
      }
    );
  };

  App.prototype.load = function (text) {
    var self = this;
    var error = this.find(".rb-load-error");
    error.hidden = true;
    return this.call("load", [text, this.lang]).then(function (answer) {
      if (answer.error) {
        error.textContent = answer.error.text;
        error.hidden = false;
        return false;
      }
      self.setFen(answer.fen);
      if (answer.variant) {
        self.variant.value = answer.variant;
      }
      self.solution.value = answer.solution || "";
      self.otherTags = answer.tags || {};
      var inputs = self.root.querySelectorAll(".rb-tag");
      for (var i = 0; i < inputs.length; i++) {
        inputs[i].value = self.otherTags[inputs[i].getAttribute("data-tag")] || "";
      }
      return self.showMoves().then(function () {
        return true;
      });
    });
  };

  /* ------------------------------------------------------------------ the check */

  App.prototype.check = function () {
    var self = this;
    if (this.checking || !this.ready) {
      return Promise.resolve();
    }
    var pieces = this.fen().split(":").slice(1);
    if (pieces.length < 2 || pieces[0].length < 2 || pieces[1].length < 2) {
      /* "W:W:B" or a side without pieces: nothing to judge */
      this.progress.textContent = this.say("empty_board");
      return Promise.resolve();
    }
    var seconds = Math.max(1, Math.min(3600, Number(this.find(".rb-seconds").value) || 20));
    var started = Date.now();
    var state = { nodes: 0, stage: "" };
    var fetching = null; /* the last word of the worker's table requests, and when it came */
    this.report.hidden = true;
    this.report.removeAttribute("data-verdict");
    this.report.removeAttribute("data-grade");
    this.checkButton.disabled = true;
    this.cancelButton.disabled = false;
    var show = function () {
      var text = self.say("running", {
        seconds: ((Date.now() - started) / 1000).toFixed(1),
        nodes: state.nodes.toLocaleString(self.lang),
        stage: state.stage
      });
      /* a request under way, or one a moment ago: a slow connection never looks like a hang */
      if (fetching && (fetching.active || Date.now() - fetching.at < 1000)) {
        text = text.trim();
        text +=
          " " +
          (fetching.total !== undefined
            ? self.say("fetching_of", {
                done: self.megabytes(fetching.done),
                total: self.megabytes(fetching.total)
              })
            : self.say("fetching", { table: fetching.name, done: self.megabytes(fetching.bytes) }));
      }
      self.progress.textContent = text;
    };
    show();
    var ticking = setInterval(show, 250);
    this.checking = { ticking: ticking };
    this.forgetButton.disabled = true;
    return this.call("check", [this.problem(), seconds, this.lang], function (update, fetched) {
      if (update) {
        state = { nodes: update.nodes, stage: self.stage(update.stage) };
      }
      if (fetched) {
        fetching = fetched;
        fetching.at = Date.now();
      }
      show();
    })
      .then(function (record) {
        self.finish();
        self.showReport(record);
      })
      .catch(function (error) {
        self.finish();
        self.progress.textContent = String(error.message || error);
      });
  };

  /* the judge's progress lines, in the page's language (checkpage/entry.py never translates them) */
  var STAGES = [
    [/^A: searching key (\S+)$/, "stage_key", ["move"]],
    [/^C: walking the solution tree$/, "stage_walk", []],
    [/^D: removing each man$/, "stage_men", []],
    [/^time left \(([0-9.]+) s\): judging again with it$/, "stage_again", ["seconds"]]
  ];

  App.prototype.stage = function (text) {
    text = String(text || "");
    for (var i = 0; i < STAGES.length; i++) {
      var match = STAGES[i][0].exec(text);
      if (match) {
        var values = {};
        STAGES[i][2].forEach(function (name, index) {
          values[name] = match[index + 1];
        });
        return this.say(STAGES[i][1], values);
      }
    }
    return text;
  };

  App.prototype.summary = function (record) {
    var self = this;
    var rows = record.report.rows;
    if (record.grade === "undecided") {
      var open = rows
        .filter(function (row) {
          return row.status === "undecided";
        })
        .map(function (row) {
          return row.name;
        });
      return self.say("still_open", { criteria: open.join(", ") || "A" });
    }
    if (record.report.solution_error) {
      return record.report.solution_error;
    }
    var wanted = record.grade === "incorrect" ? "fail" : "remark";
    var first = rows.filter(function (row) {
      return row.status === wanted;
    })[0];
    return first && record.grade !== "correct" ? first.name + ": " + first.detail : "";
  };

  App.prototype.finish = function () {
    if (this.checking) {
      clearInterval(this.checking.ticking);
    }
    this.checking = null;
    this.checkButton.disabled = !this.ready;
    this.cancelButton.disabled = true;
    this.forgetButton.disabled = !this.kept;
  };

  App.prototype.cancel = function () {
    if (!this.checking) {
      return;
    }
    this.worker.terminate();
    Object.keys(this.pending).forEach(
      function (id) {
        this.pending[id].reject(new Error(this.say("cancelled")));
      }.bind(this)
    );
    this.pending = {};
    this.finish();
    this.startWorker();
    this.progress.textContent = this.say("cancelled");
  };

  App.prototype.showReport = function (record) {
    var self = this;
    if (record.error) {
      this.progress.textContent = record.error.text;
      return;
    }
    this.progress.textContent = this.say("done", {
      seconds: Number(record.seconds).toFixed(1),
      nodes: Number(record.report.nodes).toLocaleString(this.lang)
    });
    var grade = this.find(".rb-check-grade");
    grade.textContent = "";
    var badge = document.createElement("span");
    badge.className = "rb-grade rb-grade-" + String(record.grade).replace(/ /g, "-");
    badge.textContent = this.say(record.grade);
    grade.appendChild(badge);
    var summary = this.summary(record);
    if (summary) {
      grade.appendChild(document.createTextNode(" " + summary));
    }
    this.find(".rb-command").textContent = record.report.command || "";
    if (record.report.tables_error) {
      this.progress.textContent += " " + this.say("tables_error", { error: record.report.tables_error });
    }
    /* tables that could not be fetched or failed their checksum: the check did without them */
    var faults = record.report.table_faults || [];
    if (faults.length) {
      var named = faults.map(function (fault) {
        return fault["class"] + " (" + self.say("fault_" + fault.kind) + ")";
      });
      this.progress.textContent += " " + this.say("table_faults", { tables: named.join(", ") });
    }
    this.find(".rb-check-keys").textContent =
      this.say("keys") + ": " + ((record.winning_keys || []).join(", ") || "-");
    var body = this.report.querySelector("tbody");
    body.textContent = "";
    record.report.rows.forEach(function (row) {
      var tr = document.createElement("tr");
      tr.className = "rb-" + row.status;
      tr.setAttribute("data-criterion", row.name);
      tr.setAttribute("data-status", row.status);
      [row.name, self.say(row.status), row.detail].forEach(function (text) {
        var td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    this.showOpinions(record.report);
    this.lastRecord = record; /* for scripts that drive the page (benchmarks, tests) */
    this.report.setAttribute("data-verdict", record.verdict);
    this.report.setAttribute("data-grade", record.grade);
    this.report.hidden = false;
  };

  /* The engine's opinion on each question the judgement left open (checker/opinion.py),
   * worded in Python in the page's language so that no sentence reads as a proof; shown as
   * text only. */
  App.prototype.showOpinions = function (report) {
    var box = this.find(".rb-opinions");
    var list = box.querySelector(".rb-opinion-list");
    var opinions = report.opinions || [];
    list.textContent = "";
    opinions.forEach(function (opinion) {
      var item = document.createElement("li");
      item.className = "rb-opinion rb-opinion-" + (opinion.says === "win" ? "win" : "no-win");
      var criteria = document.createElement("strong");
      criteria.textContent = opinion.criteria || "-";
      item.appendChild(criteria);
      item.appendChild(document.createTextNode(": " + opinion.text));
      list.appendChild(item);
    });
    box.querySelector(".rb-opinion-calibration").textContent = report.calibration || "";
    box.hidden = opinions.length === 0;
  };

  /* ------------------------------------------------------------------ anticipations */

  /* The site's published problems most like the one on the board, searched in the worker
   * against the index the site ships (browser.similar): each a link, its reason and, where
   * the position or final combination is the same, "possible anticipation". */
  App.prototype.similar = function () {
    var self = this;
    var section = this.find(".rb-similar-report");
    var status = section.querySelector(".rb-similar-status");
    var list = section.querySelector(".rb-relatives");
    section.hidden = false;
    list.textContent = "";
    status.textContent = this.say("similar_running");
    this.similarButton.disabled = true;
    return this.call("similar", [this.problem(), this.lang])
      .then(function (answer) {
        if (answer.error) {
          status.textContent = answer.error.text || answer.error.message;
          return;
        }
        var matches = answer.matches || [];
        status.textContent = matches.length
          ? self.say("similar_found", { count: matches.length })
          : self.say("similar_none");
        matches.forEach(function (match) {
          var item = document.createElement("li");
          var link = document.createElement("a");
          link.href = new URL(match.href, self.home).href;
          link.textContent = match.name;
          item.appendChild(link);
          var about = (match.title ? ": " + match.title : "") + (match.by ? " (" + match.by + ")" : "");
          item.appendChild(document.createTextNode(about));
          if (match.anticipation) {
            item.appendChild(document.createTextNode(" "));
            var flag = document.createElement("strong");
            flag.className = "rb-anticipation";
            flag.textContent = self.say("possible_anticipation");
            item.appendChild(flag);
          }
          item.appendChild(document.createTextNode(": " + match.reason + " "));
          var likeness = document.createElement("span");
          likeness.className = "rb-likeness";
          likeness.textContent = "(" + self.say("likeness") + " " + match.likeness + ")";
          item.appendChild(likeness);
          list.appendChild(item);
        });
      })
      .catch(function (error) {
        status.textContent = String(error.message || error);
      })
      .then(function () {
        self.similarButton.disabled = false;
      });
  };

  App.prototype.download = function () {
    var self = this;
    return this.call("pdn", [this.problem()]).then(function (answer) {
      if (answer.error) {
        self.progress.textContent = answer.error.text;
        return;
      }
      var blob = new Blob([answer.pdn], { type: "application/x-pdn" });
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "problem.pdn";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () {
        URL.revokeObjectURL(link.href);
      }, 1000);
    });
  };

  /* ------------------------------------------------------------------ links */

  App.prototype.fromHash = function () {
    var self = this;
    var fields = {};
    location.hash
      .replace(/^#/, "")
      .split("&")
      .forEach(function (part) {
        var at = part.indexOf("=");
        if (at > 0) {
          try {
            fields[part.slice(0, at)] = decodeURIComponent(part.slice(at + 1));
          } catch (error) {
            fields[part.slice(0, at)] = "";
          }
        }
      });
    if (!fields.pdn) {
      return;
    }
    this.find(".rb-paste").value = fields.pdn;
    if (/^[0-9]+$/.test(fields.seconds || "")) {
      this.find(".rb-seconds").value = fields.seconds; /* "&seconds=60": another limit */
    }
    if (fields.run === "1" && this.worker) {
      /* the problem will be checked once Python is loaded: its tables are asked now */
      this.worker.postMessage({
        id: 0,
        base: this.base,
        pyodide: this.pyodide,
        op: "ahead",
        args: [fields.pdn, Number(this.find(".rb-seconds").value) || 0],
        tables: this.strings.tables || {}
      });
    }
    this.load(fields.pdn).then(function (loaded) {
      if (loaded && fields.run === "1") {
        self.whenReady(function () {
          self.check();
        });
      }
    });
  };

  App.prototype.whenReady = function (then) {
    var self = this;
    if (this.ready) {
      then();
      return;
    }
    setTimeout(function () {
      self.whenReady(then);
    }, 100);
  };

  function setup() {
    var roots = document.querySelectorAll(".rb-checker");
    for (var i = 0; i < roots.length; i++) {
      if (!roots[i].getAttribute("data-rb-ready")) {
        roots[i].setAttribute("data-rb-ready", "true");
        roots[i].rulebookChecker = new App(roots[i]);
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
