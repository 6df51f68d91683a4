// The game page: the flip control, and live updates without reloading.
// * Flip: the server draws Black's view turned (row 7 at the bottom); the button turns
//   the board either way for anyone.  Pieces and coordinates stay upright.
// * Live: when the live stream (web/live.js) says this game changed, or every few seconds
//   while there is no stream, the page asks the game API; when a turn was played (the
//   game ended, a draw was offered or withdrawn) it fetches the page again and swaps the
//   game part in place.  On a finished game a challenge (a rematch offer) swaps it too.  A turn the player is assembling is never thrown away: a note offers
//   the update instead; the message and notes panels are kept as they are.
(function () {
  "use strict";
  var live = document.getElementById("game-live");
  if (!live) return;
  var key = "adaptoid:flip:" + live.getAttribute("data-game");

  function turnBoard(svg, flipped) {
    var center = (svg.getAttribute("data-center") || "0 0").split(" ");
    var group = svg.querySelector("g.turnable");
    if (!group) return;
    if (flipped) group.setAttribute("transform", "rotate(180 " + center[0] + " " + center[1] + ")");
    else group.removeAttribute("transform");
    svg.querySelectorAll(".upright").forEach(function (item) {
      if (flipped) item.setAttribute("transform", "rotate(180 " + item.getAttribute("data-x") + " " + item.getAttribute("data-y") + ")");
      else item.removeAttribute("transform");
    });
    svg.setAttribute("data-flipped", flipped ? "1" : "0");
  }
  function storedFlip() {
    try { return window.sessionStorage.getItem(key); } catch (e) { return null; }  // private mode
  }
  function applyFlip() {
    var stored = storedFlip();
    document.querySelectorAll("#board-wrap svg.board").forEach(function (svg) {
      if (stored !== null) turnBoard(svg, stored === "1");
    });
    var button = document.getElementById("flip-board");
    var board = document.querySelector("#board-wrap svg.board");
    if (button && board) {
      button.hidden = false;
      button.setAttribute("aria-pressed", board.getAttribute("data-flipped") === "1" ? "true" : "false");
    }
  }
  function wireFlip() {
    var button = document.getElementById("flip-board");
    if (!button) return;
    button.addEventListener("click", function () {
      var board = document.querySelector("#board-wrap svg.board");
      if (!board) return;
      var flipped = board.getAttribute("data-flipped") !== "1";
      try { window.sessionStorage.setItem(key, flipped ? "1" : "0"); } catch (e) { /* ignore */ }
      document.querySelectorAll("#board-wrap svg.board").forEach(function (svg) { turnBoard(svg, flipped); });
      button.setAttribute("aria-pressed", flipped ? "true" : "false");
    });
  }
  applyFlip();
  wireFlip();
  // play.js draws its preview the way the board is turned (it reads data-flipped).

  // --- Live updates. ----------------------------------------------------------------
  if (live.getAttribute("data-latest") !== "1") return;  // replaying an old turn
  var api = live.getAttribute("data-api");
  var FAST = 2000, SLOW = 15000;
  var timer = null;
  var gameId = Number(live.getAttribute("data-game"));
  function finished() { return live.getAttribute("data-status") === "finished"; }
  // The stream tells the players about their game; anybody else's page keeps polling.
  var player = live.getAttribute("data-player") === "1";
  function schedule(delay) {
    clearTimeout(timer);
    if (finished() || (player && document.documentElement.getAttribute("data-live-mode") === "stream")) return;
    timer = setTimeout(poll, delay);
  }

  function busy() {
    var form = document.getElementById("play-form");
    var input = document.getElementById("turn-input");
    return Boolean(form && (form.getAttribute("data-busy") === "1" || (input && input.value.trim())));
  }
  function note() {
    var element = document.getElementById("live-note");
    if (element) element.hidden = false;
  }
  // `asked`: the player clicked the note's link, so even a turn being assembled goes.
  function swap(asked) {
    return fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("game-live");
        if (!fresh) return;
        if (!asked && busy()) { note(); return; }  // they started a turn meanwhile
        // Panels marked data-keep (messages, notes) stay as they are: their scripts hold
        // their elements, and a message or note being typed must not be lost.
        live.querySelectorAll("[data-keep][id]").forEach(function (kept) {
          var twin = fresh.querySelector("#" + kept.id);
          if (twin) twin.replaceWith(kept);
        });
        live.replaceChildren.apply(live, Array.prototype.slice.call(fresh.childNodes));
        ["data-ply", "data-status", "data-draw"].forEach(function (name) { live.setAttribute(name, fresh.getAttribute(name)); });
        applyFlip();
        wireFlip();
        document.dispatchEvent(new CustomEvent("adaptoid:replaced"));
        document.dispatchEvent(new CustomEvent("adaptoid:refresh"));  // the header's counts
      });
  }
  function changed() {
    if (!busy()) return swap(false);
    note();
    return Promise.resolve();
  }
  // One look at a time: events may come faster than the answers (two swaps at once
  // could replace a board the player has started on); one asked meanwhile runs after.
  var looking = false, lookAgain = false;
  function poll() {
    clearTimeout(timer);
    if (looking) { lookAgain = true; return; }
    looking = true;
    fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (game) {
        if (String(game.ply) !== live.getAttribute("data-ply") || game.status !== live.getAttribute("data-status") ||
            (game.draw_offer || "") !== (live.getAttribute("data-draw") || "")) {  // a draw offered or withdrawn
          return changed();
        }
      })
      .catch(function () { /* the next poll tries again */ })
      .then(function () {
        looking = false;
        if (lookAgain) { lookAgain = false; poll(); return; }
        schedule(document.hidden ? SLOW : FAST);
      });
  }
  document.addEventListener("adaptoid:live", function (event) {
    var change = event.detail || {};
    if (change.game === gameId && !finished()) poll();
    else if (change.type === "challenge" && finished()) changed();  // a rematch offered
  });
  document.addEventListener("adaptoid:live-mode", function () { if (!finished()) poll(); });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#live-note a");
    if (!link) return;
    event.preventDefault();
    swap(true);
  });
  schedule(FAST);
})();
