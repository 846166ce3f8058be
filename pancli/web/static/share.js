// pan serve: the settle-up page's Copy button copies the night's summary (the text of its box) for
// the group chat. Over plain HTTP on a LAN the page is no secure context and has no
// navigator.clipboard: the box's text is selected and copied with document.execCommand("copy"),
// which a browser allows on a tap. The text stays in the box either way, to select by hand; the
// page's words come in the button's data-copied and data-failed, in the page's language.
(function () {
  "use strict";

  function say(button, text) {
    var out = button.parentNode && button.parentNode.querySelector(".copied");
    if (out) out.textContent = text;
  }

  function bySelection(box) {
    box.focus();
    box.select();
    box.setSelectionRange(0, box.value.length);
    try {
      return document.execCommand("copy");
    } catch (e) {
      return false;
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("button.copy") : null;
    if (!button) return;
    var box = document.getElementById(button.getAttribute("aria-controls") || "summary");
    if (!box) return;
    var copied = button.dataset.copied || "Copied", failed = button.dataset.failed || "";
    if (window.isSecureContext && navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(box.value).then(function () {
        box.select();
        say(button, copied);
      }, function () {
        say(button, bySelection(box) ? copied : failed);
      });
      return;
    }
    say(button, bySelection(box) ? copied : failed);
  });
})();
