// The game page while its analysis waits or runs: poll the API, show the progress and the
// place in line, reload when done (or failed: the page then offers to ask again).
(function () {
  "use strict";
  var line = document.getElementById("analysis-progress");
  if (!line || !window.fetch) { return; }
  var place = document.getElementById("analysis-place");
  var api = line.getAttribute("data-api");
  var template = line.textContent.replace(/[0-9]+%/, "{}%");
  function showPlace(number) {
    if (!place) { return; }
    if (number === null || number === undefined) { place.textContent = ""; }
    else if (number <= 1) { place.textContent = place.getAttribute("data-next"); }
    else { place.textContent = place.getAttribute("data-ahead").replace("{}", String(number - 1)); }
  }
  function poll() {
    fetch(api, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        if (body.status === "done" || body.status === "failed") { window.location.reload(); return; }
        line.textContent = template.replace("{}", String(Math.round(body.progress * 100)));
        showPlace(body.place_in_line);
        window.setTimeout(poll, 2000);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 2000);
})();
