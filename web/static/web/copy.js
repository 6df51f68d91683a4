// "Copy" buttons next to read-only fields; without a clipboard the text is selected.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  button.addEventListener("click", function () {
    var field = document.getElementById(button.getAttribute("data-copy"));
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).catch(function () {});
    }
  });
});
