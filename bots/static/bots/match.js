// Live progress: poll GET /api/v1/bot-matches/<id> every two seconds while it runs.
(function () {
  var root = document.getElementById("bot-match");
  var finishedText = root.dataset.finishedText;
  function cell(row, text, href) {
    var td = row.insertCell();
    if (href) { var a = document.createElement("a"); a.href = href; a.textContent = text; td.appendChild(a); }
    else { td.textContent = text; }
  }
  function show(m) {
    document.getElementById("match-progress").value = m.played;
    document.getElementById("match-played").textContent = m.played;
    document.getElementById("match-score").textContent = m.score;
    if (m.status === "finished") { document.getElementById("match-status").textContent = finishedText; }
    var body = document.getElementById("match-games");
    body.textContent = "";
    m.game_list.forEach(function (g) {
      var row = body.insertRow();
      cell(row, g.number, root.dataset.gameUrl.replace("999999999", g.id));
      cell(row, g.white); cell(row, g.black); cell(row, g.ply); cell(row, g.result);
    });
    if (m.status !== "finished") { setTimeout(poll, 2000); }
  }
  function poll() {
    fetch(root.dataset.api, {headers: {Accept: "application/json"}})
      .then(function (r) { return r.json(); }).then(show)
      .catch(function () { setTimeout(poll, 5000); });
  }
  if (root.dataset.status !== "finished") { setTimeout(poll, 1000); }
})();
