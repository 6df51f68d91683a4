// The analysis board's "Evaluate" button: a short engine job (POST /api/v1/evaluations),
// polled by its id until done; shows White's expected score, the best turn and line.
(function () {
  "use strict";
  var button = document.getElementById("evaluate-button");
  var out = document.getElementById("evaluation-result");
  if (!button || !out || !window.fetch) { return; }
  var api = button.getAttribute("data-api");
  function text(name) { return button.getAttribute("data-" + name); }
  function show(body) {
    out.textContent = text("eval") + ": " + body.eval.toFixed(2) +
      (body.best ? " · " + text("best") + ": " + body.best + " · " + text("line") + ": " +
        body.pv.join(" ") : "");
    button.disabled = false;
  }
  function fail() { out.textContent = text("failed"); button.disabled = false; }
  function poll(id, tries) {
    fetch(api + "/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        if (body.status === "done") { show(body); }
        else if (body.status === "failed" || tries > 120) { fail(); }
        else { window.setTimeout(function () { poll(id, tries + 1); }, 500); }
      })
      .catch(fail);
  }
  button.addEventListener("click", function () {
    button.disabled = true;
    out.textContent = text("waiting");
    fetch(api, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ position: button.getAttribute("data-position") })
    })
      .then(function (response) { return response.json(); })
      .then(function (body) { if (body.id) { poll(body.id, 0); } else { fail(); } })
      .catch(fail);
  });
})();
