// The game page's messages (chat/_messages.html): fetch the new ones when the live
// stream (web/live.js) reports a message in this game, or every few seconds while
// there is no stream, and append them, so the opponent's message shows without a reload.
(function () {
  "use strict";
  var list = document.getElementById("message-list");
  if (!list) { return; }
  var empty = document.getElementById("no-messages");
  var form = document.getElementById("message-form");
  var token = form ? form.querySelector("input[name=csrfmiddlewaretoken]") : null;
  var last = 0;
  Array.prototype.forEach.call(list.children, function (item) {
    last = Math.max(last, Number(item.dataset.id) || 0);
  });
  var delay = 3000;

  function reportForm(message) {
    var report = document.createElement("form");
    report.method = "post";
    report.className = "inline";
    report.action = list.dataset.report.replace(/\/0\/report\/$/, "/" + message.id + "/report/");
    var hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = "csrfmiddlewaretoken";
    hidden.value = token.value;
    var button = document.createElement("button");
    button.type = "submit";
    button.className = "link";
    button.textContent = list.dataset.reportLabel;
    report.append(hidden, button);
    return report;
  }

  function append(message) {
    var item = document.createElement("li");
    item.dataset.id = message.id;
    var author = document.createElement("strong");
    author.textContent = message.author;
    var time = document.createElement("time");
    time.dateTime = message.created;
    time.textContent = message.created.slice(0, 16).replace("T", " ");
    var text = document.createElement("span");
    text.className = "message-text";
    text.textContent = message.text;  // plain text, never HTML
    item.append(author, " ", time, " ", text);
    if (list.dataset.canReport && token && message.author !== list.dataset.me && !message.hidden) {
      item.append(" ", reportForm(message));
    }
    list.append(item);
    last = Math.max(last, message.id);
    if (empty) { empty.hidden = true; }
  }

  var timer = null;
  var gameId = Number(list.dataset.game);
  // The stream tells the players about their game's messages; a reader who is not
  // a player keeps polling.
  var page = document.getElementById("game-live");
  var player = Boolean(page && page.getAttribute("data-player") === "1");
  function later(wait) {
    clearTimeout(timer);
    if (player && document.documentElement.getAttribute("data-live-mode") === "stream") { return; }
    timer = setTimeout(poll, wait);
  }
  function poll() {
    clearTimeout(timer);
    fetch(list.dataset.poll + "?after=" + last, {
      headers: {Accept: "application/json"}, credentials: "same-origin"
    })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (data) {
        data.messages.forEach(function (message) { if (message.id > last) { append(message); } });
        // Quick while the conversation goes on, slower when it is quiet.
        delay = data.messages.length ? 3000 : Math.min(delay * 1.2, 15000);
        later(delay);
      })
      .catch(function () { later(30000); });
  }
  document.addEventListener("adaptoid:live", function (event) {
    if (event.detail && event.detail.type === "message" && event.detail.game === gameId) { poll(); }
  });
  document.addEventListener("adaptoid:live-mode", function () { poll(); });
  later(delay);
})();
