// pan serve's TV board: when the hand and the standings do not both fit the screen, show them
// one at a time, in turn. live.js swaps in fresh content; this only decides what is shown.
(function () {
  "use strict";
  var SECONDS = 8;
  var main = document.getElementById("live");
  if (!main) return;
  var showing = null, timer = null;

  function panels() { return Array.prototype.slice.call(main.querySelectorAll(".panel")); }

  function fits(box) { return box.scrollHeight <= box.clientHeight + 1; }

  function show(name) {
    showing = name;
    var box = main.querySelector(".panels");
    panels().forEach(function (p) { p.hidden = p.dataset.panel !== name; });
    panels().forEach(function (p) {
      if (p.hidden) return;
      // a panel still taller than the screen alone (seven players' melds): smaller type, to a point
      p.style.zoom = "";
      if (box && !fits(box)) {
        p.style.zoom = String(Math.max(0.6, Math.floor(100 * box.clientHeight / box.scrollHeight) / 100));
      }
    });
  }

  function layout() {
    var box = main.querySelector(".panels");
    if (!box) return;
    box.classList.remove("rotating");
    panels().forEach(function (p) { p.hidden = false; p.style.zoom = ""; });
    if (fits(box)) { clearInterval(timer); timer = null; showing = null; return; }
    box.classList.add("rotating");
    var names = panels().map(function (p) { return p.dataset.panel; });
    show(names.indexOf(showing) === -1 ? names[0] : showing);
    if (!timer) timer = setInterval(function () {
      var all = panels().map(function (p) { return p.dataset.panel; });
      show(all[(all.indexOf(showing) + 1) % all.length]);
    }, SECONDS * 1000);
  }

  new MutationObserver(layout).observe(main, { childList: true });
  window.addEventListener("resize", layout);
  layout();
})();
