// The game page while its analysis runs: poll the API, show the progress, reload when done.
(function () {
  "use strict";
  var line = document.getElementById("analysis-progress");
  if (!line || !window.fetch) { return; }
  var api = line.getAttribute("data-api");
  var template = line.textContent.replace(/[0-9]+%/, "{}%");
  function poll() {
    fetch(api, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        if (body.status === "done") { window.location.reload(); return; }
        line.textContent = template.replace("{}", String(Math.round(body.progress * 100)));
        window.setTimeout(poll, 2000);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 2000);
})();
