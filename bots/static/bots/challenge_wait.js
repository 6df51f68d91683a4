// Poll the challenge until the bot's task accepts it, then open the game.
(function () {
  var box = document.getElementById("challenge-status");
  function check() {
    fetch(box.dataset.api, {headers: {Accept: "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (c) {
        if (c.game) { window.location = box.dataset.gameUrl.replace("999999999", c.game); }
        else if (c.status === "open") { setTimeout(check, 1000); }
        else { box.textContent = c.status; }
      })
      .catch(function () { setTimeout(check, 3000); });
  }
  check();
})();
