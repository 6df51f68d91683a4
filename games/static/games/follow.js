// Waiting for the opponent (a bot replies within seconds): poll the game through the
// API and reload the page when its turn count or status changes.  Included by the game
// page only while the viewer plays in it and it is not their move.
(function () {
  "use strict";
  var script = document.currentScript;
  var api = script.dataset.api;
  var ply = script.dataset.ply;
  var status = script.dataset.status;
  var delay = 2000;
  function poll() {
    fetch(api, {headers: {Accept: "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (game) {
        if (String(game.ply) !== ply || game.status !== status) { window.location.reload(); return; }
        delay = Math.min(delay * 1.2, 30000);  // slower and slower for a human opponent
        setTimeout(poll, delay);
      })
      .catch(function () { setTimeout(poll, 30000); });
  }
  setTimeout(poll, delay);
})();
