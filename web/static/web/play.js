// Playing by clicking: the page lists the legal turns (#legal-turns); this script only
// offers choices that lead to one of them and writes the assembled turn into the form.
// Viewing needs no script; without it the turn can still be typed.
(function () {
  "use strict";
  // Replay: arrow keys (and Home/End) follow the navigation links.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (target && target.closest && target.closest("svg .cell")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var link = document.querySelector('.replay-nav a[data-key="' + event.key + '"]');
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });

  function init() {
  var board = document.querySelector("#board-wrap svg.board:not(.preview), .analysis svg.board:not(.preview)");
  var cells = {};
  if (board) {
    board.querySelectorAll(".cell").forEach(function (g) { cells[g.getAttribute("data-cell")] = g; });
  }
  function onActivate(handler) {
    Object.keys(cells).forEach(function (name) {
      var g = cells[name];
      if (g.getAttribute("role") !== "button") return;
      g.addEventListener("click", function () { handler(name); });
      g.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); handler(name); }
      });
    });
  }
  // The keyboard: the board is one stop of the Tab order (a legal choice first), and
  // the arrow keys go from cell to cell, the way they point on the screen (the board
  // may be turned); Enter or Space chooses the cell.
  var buttons = Object.keys(cells).filter(function (n) { return cells[n].getAttribute("role") === "button"; });
  function rove(name) {
    buttons.forEach(function (n) { cells[n].setAttribute("tabindex", n === name ? "0" : "-1"); });
  }
  function entry() {
    var first = function (cls) { return buttons.filter(function (n) { return cells[n].classList.contains(cls); })[0]; };
    return first("mark") || first("grow") || buttons[0];
  }
  function center(name) {
    var box = cells[name].getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }
  var ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  function neighbourTowards(name, key) {
    var from = center(name), way = ARROWS[key], best = null, bestScore = Infinity;
    buttons.forEach(function (n) {
      if (n === name) return;
      var to = center(n), dx = to.x - from.x, dy = to.y - from.y;
      var along = dx * way[0] + dy * way[1];
      if (along <= 1) return;  // not in that direction
      var across = Math.abs(dx * way[1] - dy * way[0]);
      var score = along + 2 * across;  // straight ahead first, then the nearest diagonal
      if (score < bestScore) { bestScore = score; best = n; }
    });
    return best;
  }
  buttons.forEach(function (n) {
    cells[n].addEventListener("focus", function () { rove(n); });
    cells[n].addEventListener("keydown", function (event) {
      if (!ARROWS[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      var next = neighbourTowards(n, event.key);
      if (next) cells[next].focus();
    });
  });
  function enterBoardAtAChoice() {
    var active = document.activeElement;
    if (!(active && buttons.some(function (n) { return cells[n] === active; }))) rove(entry());
  }
  if (buttons.length) rove(entry());

  function mark(names, cls) {
    Object.keys(cells).forEach(function (n) { cells[n].classList.remove(cls); });
    names.forEach(function (n) { if (cells[n]) cells[n].classList.add(cls); });
  }

  // --- Pie setup: two clicks fill the two cells. -------------------------------------
  var setupWhite = document.getElementById("setup-white");
  var setupBlack = document.getElementById("setup-black");
  if (setupWhite && setupBlack) {
    onActivate(function (name) {
      if (!setupWhite.value || (setupWhite.value && setupBlack.value)) {
        setupWhite.value = name; setupBlack.value = "";
        mark([name], "from"); mark([], "act");
      } else if (name !== setupWhite.value) {
        setupBlack.value = name; mark([name], "act");
      }
    });
    return;
  }

  // --- Turns. ------------------------------------------------------------------------
  var data = document.getElementById("legal-turns");
  var form = document.getElementById("play-form");
  if (!data || !form || !board) return;
  var text = JSON.parse(document.getElementById("play-text").textContent);
  var input = document.getElementById("turn-input");
  var help = document.getElementById("play-help");
  var choices = document.getElementById("play-choices");
  var panel = document.getElementById("play");
  var TURN = /^(?:([A-Z]+\d+)([-x])([A-Z]+\d+))?,?(?:([A-Z]+\d+)([LP]?))?$/;
  var turns = JSON.parse(data.textContent).map(function (t) {
    if (t === "pass") return { text: t, from: null, to: null, act: null, kind: null };
    var m = TURN.exec(t);
    if (!m) return null;
    return {
      text: t, from: m[1] || null, to: m[3] || null, attack: m[2] === "x",
      act: m[4] || null, kind: m[4] ? ({ L: "leg", P: "pincer" }[m[5]] || "create") : null
    };
  }).filter(Boolean);

  var state;
  function unique(list) { return list.filter(function (v, i) { return v && list.indexOf(v) === i; }); }
  function button(label, handler, cls) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = label; if (cls) b.className = cls;
    b.addEventListener("click", handler);
    choices.appendChild(b);
    return b;
  }
  function clearMarks() {
    mark([], "mark"); mark([], "from"); mark([], "act"); mark([], "grow");
    Object.keys(cells).forEach(function (n) { cells[n].removeAttribute("data-attack"); });
  }
  function say(message) { help.textContent = message; enterBoardAtAChoice(); }

  function reset() {
    state = { stage: "from", from: undefined, to: undefined };
    input.value = "";
    hidePreview();
    form.setAttribute("data-busy", "0");
    clearMarks();
    choices.innerHTML = "";
    var froms = unique(turns.map(function (t) { return t.from; }));
    mark(froms, "mark");
    // Cells a turn without a move acts on: clicking one starts that turn at once.
    mark(unique(turns.filter(function (t) { return !t.from; }).map(function (t) { return t.act; })), "grow");
    var still = turns.filter(function (t) { return !t.from; });
    if (still.length === 1 && still[0].text === "pass") {
      button(text.pass, function () { done(still[0]); });
    } else if (still.length) {
      button(text.noMove, function () { state.from = null; state.to = null; toAction(); });
    }
    say(froms.length ? text.start : text.startStill);
  }
  function candidates() {
    return turns.filter(function (t) {
      return t.from === (state.from || null) && t.to === (state.to || null);
    });
  }
  function toDestination(from) {
    state.stage = "to"; state.from = from;
    form.setAttribute("data-busy", "1");
    clearMarks(); mark([from], "from");
    var list = turns.filter(function (t) { return t.from === from; });
    mark(unique(list.map(function (t) { return t.to; })), "mark");
    list.forEach(function (t) {
      if (t.attack && cells[t.to]) cells[t.to].setAttribute("data-attack", "1");
    });
    choices.innerHTML = "";
    button(text.reset, reset);
    say(text.destination);
  }
  function toAction() {
    var list = candidates();
    state.stage = "action";
    clearMarks();
    if (state.from) { mark([state.from], "from"); mark([state.to], "act"); }
    choices.innerHTML = "";
    var withAction = list.filter(function (t) { return t.act; });
    var bare = list.filter(function (t) { return !t.act; });
    if (!withAction.length && bare.length) { done(bare[0]); return; }
    mark(unique(withAction.map(function (t) { return t.act; })), "mark");
    if (bare.length) button(text.stop, function () { done(bare[0]); });
    button(text.reset, reset);
    say(state.from ? text.action : text.noMoveStart + " " + text.action);
  }
  function chooseAction(cell) {
    var list = candidates().filter(function (t) { return t.act === cell; });
    if (list.length === 1) { done(list[0]); return; }
    choices.innerHTML = "";
    list.forEach(function (t) { button(text[t.kind], function () { done(t); }); });
    button(text.reset, reset);
    mark([cell], "act");
    say(text.limb.replace("%s", cell));
  }
  function done(turn) {
    state.stage = "done";
    input.value = turn.text;
    clearMarks();
    if (turn.from) mark([turn.from], "from");
    mark(unique([turn.to, turn.act]), "act");
    choices.innerHTML = "";
    button(text.reset, reset);
    say(text.ready.replace("%s", turn.text));
    form.setAttribute("data-busy", "1");
    showPreview(turn.text);
    document.getElementById("send-turn").focus();
  }

  // --- The preview: the position after the assembled turn, as the engine plays it. ---
  var previewUrl = panel && panel.getAttribute("data-preview");
  var previewRequest = 0;
  function hidePreview() {
    previewRequest += 1;
    var old = board.parentNode.querySelector("svg.preview");
    if (old) old.parentNode.removeChild(old);
    board.style.display = "";
  }
  function showPreview(turnText) {
    if (!previewUrl) return;
    var ask = ++previewRequest;
    var query = "?position=" + encodeURIComponent(board.getAttribute("data-position")) +
      "&turn=" + encodeURIComponent(turnText) +
      "&flipped=" + (board.getAttribute("data-flipped") === "1" ? "1" : "0");
    fetch(previewUrl + query, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (ask !== previewRequest || !answer.svg) return;  // undone meanwhile
        var holder = document.createElement("div");
        holder.innerHTML = answer.svg;
        var svg = holder.querySelector("svg");
        svg.setAttribute("tabindex", "0");
        svg.setAttribute("role", "button");
        svg.setAttribute("aria-label", text.undoPreview.replace("%s", answer.turn));
        svg.addEventListener("click", reset);
        svg.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); reset(); }
        });
        board.style.display = "none";
        board.parentNode.insertBefore(svg, board.nextSibling);
        say(text.preview.replace("%s", answer.turn));
        document.dispatchEvent(new CustomEvent("adaptoid:preview", { detail: answer }));
      })
      .catch(function () { /* no preview: the turn can still be sent */ });
  }
  // A turn without a move acting on `name` (creating there, or growing the adaptoid there).
  function growHere(name) {
    if (!turns.some(function (t) { return !t.from && t.act === name; })) return false;
    state.from = null; state.to = null; state.stage = "action";
    clearMarks();
    choices.innerHTML = "";
    form.setAttribute("data-busy", "1");
    chooseAction(name);
    return true;
  }
  onActivate(function (name) {
    if (state.stage === "done") { reset(); }
    if (state.stage === "from" || (state.stage === "to" && name !== state.from && !cells[name].classList.contains("mark"))) {
      // One of your adaptoids that can walk: select it for a move.
      if (turns.some(function (t) { return t.from === name; })) { toDestination(name); return; }
      // An empty cell, or your adaptoid when no move is wanted: straight to the action.
      if (growHere(name)) return;
      if (state.stage === "from") return;
    }
    if (state.stage === "to") {
      // The selected adaptoid again: no move after all, grow it where it stands.
      if (name === state.from) { if (!growHere(name)) reset(); return; }
      if (turns.some(function (t) { return t.from === state.from && t.to === name; })) {
        state.to = name; toAction();
      }
      return;
    }
    if (state.stage === "action" && candidates().some(function (t) { return t.act === name; })) {
      chooseAction(name);
    }
  });
  form.addEventListener("submit", function () {
    var typed = input.value.trim().toUpperCase().replace(/\s+/g, "");
    if (typed === "PASS") typed = "pass";
    if (turns.length && !turns.some(function (t) { return t.text === typed; })) {
      // Let the server explain why (its message is in words); just warn first.
      say(text.unknown);
    }
  });
  // A turn being assembled must survive a live update of the page (games/live.js asks).
  form.setAttribute("data-busy", "0");
  reset();
  }
  init();
  // games/live.js replaced the board and the panel with fresh ones.
  document.addEventListener("adaptoid:replaced", init);
})();
