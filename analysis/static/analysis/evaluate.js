// The analysis board's "Evaluate" button: a short engine job (POST /api/v1/evaluations),
// polled by its id until done; shows White's expected score, the best turn and line, the
// place in line while the job waits, and the server's message when it is busy (429/503).
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
  function fail(message) {
    out.textContent = typeof message === "string" && message ? message : text("failed");
    button.disabled = false;
  }
  function waiting(place) {
    if (place === null || place === undefined) { out.textContent = text("waiting"); }
    else if (place <= 1) { out.textContent = text("next"); }
    else { out.textContent = text("ahead").replace("{}", String(place - 1)); }
  }
  function poll(id, tries) {
    fetch(api + "/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        if (body.status === "done") { show(body); }
        else if (body.status === "failed" || tries > 600) { fail(); }
        else {
          waiting(body.place_in_line);
          window.setTimeout(function () { poll(id, tries + 1); }, 500);
        }
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
      .then(function (body) {
        if (body.id) { waiting(body.place_in_line); poll(body.id, 0); }
        else { fail(body.error); }  // busy (429/503), throttled, a bad position
      })
      .catch(fail);
  });
})();
