// pan serve --club: the lobby. live.js swaps in fresh content when the database changes; this
// fetches it once a minute besides ("how long ago" and the live window move with the clock), and
// on the TV panel shows one table at a time, turning at the interval the page states.
(function () {
  "use strict";
  var main = document.getElementById("live");
  if (!main) return;
  var showing = null;

  function cards() { return Array.prototype.slice.call(main.querySelectorAll(".tv-table[data-table]")); }

  function show(name) {
    var all = cards();
    if (!all.length) return;
    var i = all.map(function (c) { return c.dataset.table; }).indexOf(name);
    if (i < 0) i = 0;
    all.forEach(function (c, j) { c.hidden = j !== i; });
    showing = all[i].dataset.table;
  }

  var tv = main.querySelector(".tv-lobby");
  var turn = tv ? Number(tv.dataset.turn || 0) : 0;
  if (turn > 0) {
    new MutationObserver(function () { show(showing); }).observe(main, { childList: true });
    show(null);
    setInterval(function () {
      var names = cards().map(function (c) { return c.dataset.table; });
      if (names.length) show(names[(names.indexOf(showing) + 1) % names.length]);
    }, turn * 1000);
  }
  if (window.fetch) {
    setInterval(function () {
      var url = new URL(window.location.href);
      url.searchParams.set("fragment", "1");
      fetch(url.toString(), { cache: "no-store" }).then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null) main.innerHTML = html; }).catch(function () {});
    }, 60000);
  }
})();
