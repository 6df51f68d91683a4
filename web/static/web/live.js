// The live channel of a logged-in page: one EventSource on the stream service
// (GET /api/v1/stream/page-events, docs/website.md "Live updates").  It tells the page
// *that* something of the player changed (a turn, a challenge, a game started, e.g. a
// tournament round paired); the page's scripts then fetch that part as they would by
// polling.  Their timers only run while the stream is not open:
// * <html data-live-mode="…">: "connecting", "stream" (open: no timer polls) or "poll";
// * "adaptoid:live" on document, detail {type, game, challenge}: one change;
// * "adaptoid:live-mode" on document, detail {mode}: the mode changed.  Entering
//   "stream" the scripts fetch once (what changed before the stream opened).
// Refused (429: too many tabs; 503: the stream service is full; any HTTP error) the
// page polls and tries again later, waiting longer each time; a stream the server ended
// reconnects after a second and resumes after its last event (Last-Event-ID), polling
// only if that takes long.
(function () {
  "use strict";
  var root = document.documentElement;
  var counts = document.getElementById("header-counts");
  var url = counts && counts.getAttribute("data-stream");
  var OPEN_AFTER = 1000, GRACE = 5000, RETRY = [10000, 30000, 60000];
  var source = null, graceTimer = null, retryTimer = null, refusals = 0;
  window.adaptoidLive = { events: 0 };  // messages received: read by the browser tests

  function setMode(mode) {
    if (root.getAttribute("data-live-mode") === mode) return;
    root.setAttribute("data-live-mode", mode);
    document.dispatchEvent(new CustomEvent("adaptoid:live-mode", { detail: { mode: mode } }));
  }
  function connect() {
    retryTimer = null;
    source = new EventSource(url, { withCredentials: true });
    source.onopen = function () {
      clearTimeout(graceTimer);
      graceTimer = null;
      refusals = 0;
      setMode("stream");
    };
    source.onmessage = function (message) {
      var change;
      try { change = JSON.parse(message.data); } catch (e) { return; }
      if (!change || change.type === "ready") return;
      window.adaptoidLive.events += 1;
      document.dispatchEvent(new CustomEvent("adaptoid:live", { detail: change }));
    };
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) {
        // Refused: EventSource gives up; so do we, for a while.
        clearTimeout(graceTimer);
        graceTimer = null;
        setMode("poll");
        var wait = RETRY[Math.min(refusals, RETRY.length - 1)];
        refusals += 1;
        retryTimer = setTimeout(connect, wait);
      } else if (!graceTimer) {
        // Reconnecting by itself (the server ended the stream, or the network blinked).
        graceTimer = setTimeout(function () { graceTimer = null; setMode("poll"); }, GRACE);
      }
    };
  }
  if (!url || typeof window.EventSource !== "function") { setMode("poll"); return; }
  setMode("connecting");
  // A page only passed through (a player clicking from page to page) opens no stream:
  // each would hold one of the player's few slots until the server notices it is gone.
  retryTimer = setTimeout(connect, OPEN_AFTER);
  // Leaving the page: give the server its slot back at once.
  window.addEventListener("pagehide", function () {
    clearTimeout(retryTimer);
    clearTimeout(graceTimer);
    graceTimer = null;
    if (source) source.close();
  });
  // Back to it from the browser's history cache: connect again (and catch up).
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    setMode("connecting");
    retryTimer = setTimeout(connect, OPEN_AFTER);
  });
})();
