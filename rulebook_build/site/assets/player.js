/*
 * rulebook_build solution player.
 *
 * Turns every <figure class="solution-player"> into a board that steps through its moves:
 * buttons (start, back, play/pause, forward, end) and keys (Left, Right, Home, End, Space)
 * while the player has focus.  A player with other lines (a cook, a dual, a false solution)
 * has a button per line and the Up and Down keys to switch between them; the status line
 * (aria-live) says which line is shown.  Captures move leg by leg; the captured pieces fade as the
 * capturing piece passes and leave the board when the move is complete.  Each move of the move
 * list becomes a button that shows the position after it (aria-current marks the shown move);
 * the line of key help under the buttons stays visible.
 *
 * The script knows no rules: the page embeds, per step, the route, the captured squares,
 * the placement after the move, the status line and the board description, all computed
 * by the rules engine when the site was built.  Without JavaScript the figure shows the
 * start diagram, the move list and the final diagram.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var LEG_MS = 300;
  var PAUSE_MS = 800;

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function Player(root) {
    var data = JSON.parse(root.querySelector(".rb-player-data").textContent);
    this.root = root;
    this.data = data;
    this.steps = data.steps;
    this.last = this.steps.length - 1;
    this.index = 0;
    this.token = 0;
    this.timer = null;
    this.playing = false;
    this.animating = false;
    var self = this;

    var start = root.querySelector(".rb-player-begin svg");
    var board = start.cloneNode(true);
    renameIds(board, "-live");
    this.board = board;
    this.layer = board.querySelector(".rb-pieces");
    this.marks = board.querySelector(".rb-marks");
    this.titleElement = board.querySelector("title");
    this.descElement = board.querySelector("desc");
    var holder = root.querySelector(".rb-player-live");
    holder.appendChild(board);
    holder.hidden = false;
    root.querySelector(".rb-player-bar").hidden = false;

    this.status = root.querySelector(".rb-player-status");
    this.moveList = root.querySelector(".rb-player-move-list");
    var written = root.querySelectorAll(".rb-player-move");
    for (var m = 0; m < written.length; m++) {
      written[m].parentNode.replaceChild(
        moveButton(Number(written[m].getAttribute("data-ply")), written[m].textContent),
        written[m]
      );
    }
    this.moves = root.querySelectorAll(".rb-player-move");
    this.moveList.addEventListener("click", function (event) {
      var move = event.target.closest ? event.target.closest(".rb-player-move") : null;
      if (move) {
        self.jump(Number(move.getAttribute("data-ply")));
      }
    });
    this.line = 0;
    this.lineButtons = root.querySelectorAll(".rb-player-line");
    var switcher = root.querySelector(".rb-player-lines");
    if (switcher && data.lines) {
      switcher.hidden = false;
      for (var b = 0; b < this.lineButtons.length; b++) {
        this.lineButtons[b].addEventListener(
          "click",
          this.showLine.bind(this, Number(this.lineButtons[b].getAttribute("data-line")))
        );
      }
    }
    this.buttons = {};
    var buttons = root.querySelectorAll(".rb-player-button");
    for (var i = 0; i < buttons.length; i++) {
      var button = buttons[i];
      this.buttons[button.getAttribute("data-action")] = button;
      button.addEventListener("click", this.onClick.bind(this, button));
    }
    root.classList.add("rb-js");
    root.tabIndex = 0;
    root.setAttribute(
      "aria-keyshortcuts",
      "ArrowLeft ArrowRight Home End Space" + (data.lines ? " ArrowUp ArrowDown" : "")
    );
    var help = root.querySelector(".rb-player-help");
    if (help && help.id) {
      root.setAttribute("aria-describedby", help.id);
    }
    root.addEventListener("keydown", function (event) {
      self.onKey(event);
    });
    this.render(0, false);
  }

  /* A move of the move list: a button that shows the position after ply `ply`. */
  function moveButton(ply, label) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "rb-player-move";
    button.setAttribute("data-ply", String(ply));
    button.textContent = label;
    return button;
  }

  function renameIds(svg, suffix) {
    var named = svg.querySelectorAll("[id]");
    for (var i = 0; i < named.length; i++) {
      named[i].id = named[i].id + suffix;
    }
    ["aria-labelledby", "aria-describedby"].forEach(function (name) {
      var value = svg.getAttribute(name);
      if (value) {
        svg.setAttribute(
          name,
          value
            .split(/\s+/)
            .map(function (id) {
              return id + suffix;
            })
            .join(" ")
        );
      }
    });
  }

  Player.prototype.place = function (element, square) {
    var centre = this.data.squares[square];
    element.removeAttribute("transform");
    element.style.transform = "translate(" + centre[0] + "px, " + centre[1] + "px)";
    element.setAttribute("data-square", String(square));
  };

  Player.prototype.makePiece = function (code, square) {
    var element = document.createElementNS(SVG_NS, "g");
    var white = code === "w" || code === "W";
    var king = code === "W" || code === "B";
    element.setAttribute("class", "rb-piece " + (white ? "rb-w" : "rb-b") + (king ? " rb-king" : ""));
    element.innerHTML = this.data.shapes[code];
    this.place(element, square);
    return element;
  };

  Player.prototype.pieceAt = function (square) {
    return this.layer.querySelector('.rb-piece[data-square="' + square + '"]');
  };

  Player.prototype.mark = function (square) {
    var centre = this.data.squares[square];
    var half = this.data.square / 2;
    var rect = document.createElementNS(SVG_NS, "rect");
    rect.setAttribute("class", "rb-last");
    rect.setAttribute("x", String(centre[0] - half));
    rect.setAttribute("y", String(centre[1] - half));
    rect.setAttribute("width", String(2 * half));
    rect.setAttribute("height", String(2 * half));
    this.marks.appendChild(rect);
  };

  /* Show step `index` as a still picture and update everything around the board. */
  Player.prototype.render = function (index, announce) {
    var step = this.steps[index];
    this.index = index;
    this.animating = false;
    while (this.layer.firstChild) {
      this.layer.removeChild(this.layer.firstChild);
    }
    var squares = Object.keys(step.pieces);
    for (var i = 0; i < squares.length; i++) {
      this.layer.appendChild(this.makePiece(step.pieces[squares[i]], Number(squares[i])));
    }
    var old = this.marks.querySelectorAll(".rb-last");
    for (var j = 0; j < old.length; j++) {
      old[j].parentNode.removeChild(old[j]);
    }
    if (step.path) {
      this.mark(step.path[0]);
      this.mark(step.path[step.path.length - 1]);
    }
    this.board.classList.toggle("rb-moved", index > 0);
    this.titleElement.textContent = step.status;
    this.descElement.textContent = step.desc;
    if (announce !== false) {
      this.status.textContent = step.status;
    } else if (!this.status.textContent) {
      this.status.textContent = step.status;
    }
    for (var k = 0; k < this.moves.length; k++) {
      var current = Number(this.moves[k].getAttribute("data-ply")) === index;
      this.moves[k].classList.toggle("rb-current", current);
      if (current) {
        this.moves[k].setAttribute("aria-current", "step");
      } else {
        this.moves[k].removeAttribute("aria-current");
      }
    }
    this.setEnabled("first", index > 0);
    this.setEnabled("back", index > 0);
    this.setEnabled("forward", index < this.last);
    this.setEnabled("last", index < this.last);
  };

  /* Switch to line `index` of data.lines (0: the solution) and show its start. */
  Player.prototype.showLine = function (index) {
    var lines = this.data.lines;
    if (!lines || index < 0 || index >= lines.length) {
      return;
    }
    this.setPlaying(false);
    this.cancel();
    var line = lines[index];
    this.line = index;
    this.steps = line.steps;
    this.last = this.steps.length - 1;
    while (this.moveList.firstChild) {
      this.moveList.removeChild(this.moveList.firstChild);
    }
    for (var i = 0; i < line.moves.length; i++) {
      if (i > 0) {
        this.moveList.appendChild(document.createTextNode(" "));
      }
      this.moveList.appendChild(moveButton(line.moves[i][0], line.moves[i][1]));
    }
    this.moves = this.moveList.querySelectorAll(".rb-player-move");
    for (var j = 0; j < this.lineButtons.length; j++) {
      var pressed = Number(this.lineButtons[j].getAttribute("data-line")) === index;
      this.lineButtons[j].setAttribute("aria-pressed", pressed ? "true" : "false");
    }
    this.render(0, false);
    this.status.textContent = line.announce;
  };

  Player.prototype.setEnabled = function (action, enabled) {
    var button = this.buttons[action];
    if (button) {
      button.setAttribute("aria-disabled", enabled ? "false" : "true");
    }
  };

  Player.prototype.cancel = function () {
    this.token += 1;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.animating) {
      this.render(this.index);
    }
  };

  /* Play step `index` (one move after the shown one), leg by leg. */
  Player.prototype.animate = function (index) {
    var self = this;
    var step = this.steps[index];
    var token = ++this.token;
    this.index = index;
    var mover = this.pieceAt(step.path[0]);
    if (reducedMotion() || !mover) {
      this.finish(index);
      return;
    }
    this.animating = true;
    this.layer.appendChild(mover);
    var leg = 1;
    function next() {
      if (token !== self.token) {
        return;
      }
      if (leg >= step.path.length) {
        self.timer = null;
        self.finish(index);
        return;
      }
      var captured = step.captured[leg - 1];
      if (captured !== undefined) {
        var victim = self.pieceAt(captured);
        if (victim) {
          victim.classList.add("rb-ghost");
        }
      }
      self.place(mover, step.path[leg]);
      leg += 1;
      self.timer = setTimeout(next, LEG_MS);
    }
    next();
  };

  Player.prototype.finish = function (index) {
    var self = this;
    this.render(index);
    if (!this.playing) {
      return;
    }
    if (index >= this.last) {
      this.setPlaying(false);
      return;
    }
    var token = this.token;
    this.timer = setTimeout(function () {
      if (token === self.token && self.playing) {
        self.animate(self.index + 1);
      }
    }, PAUSE_MS);
  };

  Player.prototype.setPlaying = function (playing) {
    this.playing = playing;
    this.root.classList.toggle("rb-playing", playing);
    var button = this.buttons.play;
    if (button) {
      var label = playing ? this.data.labels.pause : this.data.labels.play;
      button.setAttribute("aria-label", label);
      button.setAttribute("title", label);
    }
  };

  Player.prototype.forward = function () {
    this.setPlaying(false);
    if (this.animating) {
      this.cancel();
      return;
    }
    this.cancel();
    if (this.index < this.last) {
      this.animate(this.index + 1);
    }
  };

  Player.prototype.back = function () {
    this.setPlaying(false);
    this.cancel();
    if (this.index > 0) {
      this.render(this.index - 1);
    }
  };

  Player.prototype.jump = function (index) {
    this.setPlaying(false);
    this.cancel();
    this.render(index);
  };

  Player.prototype.togglePlay = function () {
    if (this.playing) {
      this.setPlaying(false);
      this.cancel();
      return;
    }
    this.cancel();
    if (this.index >= this.last) {
      this.render(0);
    }
    this.setPlaying(true);
    this.animate(this.index + 1);
  };

  Player.prototype.onClick = function (button) {
    if (button.getAttribute("aria-disabled") === "true") {
      return;
    }
    switch (button.getAttribute("data-action")) {
      case "first":
        this.jump(0);
        break;
      case "back":
        this.back();
        break;
      case "play":
        this.togglePlay();
        break;
      case "forward":
        this.forward();
        break;
      case "last":
        this.jump(this.last);
        break;
    }
  };

  Player.prototype.onKey = function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var onButton = event.target && event.target.tagName === "BUTTON";
    switch (event.key) {
      case "ArrowRight":
        this.forward();
        break;
      case "ArrowLeft":
        this.back();
        break;
      case "Home":
        this.jump(0);
        break;
      case "End":
        this.jump(this.last);
        break;
      case "ArrowDown":
      case "ArrowUp":
        if (!this.data.lines) {
          return;
        }
        this.showLine(
          (this.line + (event.key === "ArrowDown" ? 1 : this.data.lines.length - 1)) %
            this.data.lines.length
        );
        break;
      case " ":
      case "Spacebar":
        if (onButton) {
          return; /* the button's own click */
        }
        this.togglePlay();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  function setup() {
    var players = document.querySelectorAll(".solution-player");
    for (var i = 0; i < players.length; i++) {
      var root = players[i];
      if (root.getAttribute("data-rb-ready")) {
        continue;
      }
      root.setAttribute("data-rb-ready", "true");
      try {
        root.rulebookPlayer = new Player(root);
      } catch (error) {
        /* keep the still diagrams that the page shows without a script */
        root.classList.remove("rb-js");
        if (window.console) {
          window.console.warn("solution player:", error);
        }
      }
    }
  }

  /* for players a page adds later (the "check your problem" page) */
  window.rbPlayers = setup;

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
