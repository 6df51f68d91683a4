// The site header: the menu button on narrow screens, and the live counts.
// The logged-in page asks /status.json for the number of games waiting for the player
// and of unread notifications when the live stream (live.js) says something changed,
// or every few seconds while there is no stream; the header, the "(N) " of the tab
// title and anything listening to the "adaptoid:status" event follow it.
(function () {
  "use strict";
  var toggle = document.getElementById("menu-toggle");
  var menu = document.getElementById("site-menu");
  if (toggle && menu) {
    document.documentElement.classList.add("js-menu");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      menu.classList.toggle("open", open);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.classList.contains("open")) {
        toggle.setAttribute("aria-expanded", "false");
        menu.classList.remove("open");
        toggle.focus();
      }
    });
  }

  var counts = document.getElementById("header-counts");
  if (!counts) return;
  var url = counts.getAttribute("data-status");
  var baseTitle = document.title.replace(/^\(\d+\) /, "");
  // The version the page was drawn with (live pages carry it), else the first answer's.
  var drawn = document.querySelector("[data-live][data-version]");
  var version = drawn ? drawn.getAttribute("data-version") || null : null;
  var FAST = 3000, SLOW = 15000;

  function show(id, n) {
    var badge = document.getElementById(id);
    if (!badge) return;
    badge.textContent = String(n);
    badge.parentNode.classList.toggle("zero", !n);
  }
  function apply(status) {
    show("awaiting-count", status.awaiting);
    show("unread-count", status.unread);
    document.title = (status.awaiting ? "(" + status.awaiting + ") " : "") + baseTitle;
    var changed = version !== null && status.version !== version;
    version = status.version;
    document.dispatchEvent(new CustomEvent("adaptoid:status", { detail: { status: status, changed: changed } }));
    if (changed) refreshLiveParts();
  }
  // Parts of a page marked data-live (the home page's lists, the waiting list) are
  // fetched again and swapped in place when something changed for the player.
  function refreshLiveParts() {
    var parts = document.querySelectorAll("[data-live][id]");
    if (!parts.length) return;
    fetch(window.location.href, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        parts.forEach(function (part) {
          var replacement = fresh.getElementById(part.id);
          if (replacement) part.innerHTML = replacement.innerHTML;
        });
      })
      .catch(function () { /* the next change tries again */ });
  }
  var timer = null;
  function poll() {
    clearTimeout(timer);
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (status) { apply(status); schedule(); })
      .catch(function () { schedule(SLOW); });
  }
  function streaming() { return document.documentElement.getAttribute("data-live-mode") === "stream"; }
  function schedule(delay) {
    clearTimeout(timer);
    if (streaming()) return;  // the stream says when to look
    timer = setTimeout(poll, delay || (document.hidden ? SLOW : FAST));
  }
  // Other scripts may ask for an update at once (after sending a turn, for instance).
  document.addEventListener("adaptoid:refresh", function () { poll(); });
  document.addEventListener("adaptoid:live", function () { poll(); });
  document.addEventListener("adaptoid:live-mode", function () { poll(); });  // catch up, or poll again
  schedule();
})();
