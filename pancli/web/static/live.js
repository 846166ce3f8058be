// pan serve: keep the page current. Listens to /events (server-sent events); when the log
// changes, fetches this page's fresh content once and swaps it in. Without JavaScript the
// page still works; it just does not update by itself.
(function () {
  "use strict";
  var body = document.body;
  if (!window.EventSource || !window.fetch || !body.dataset.events) return;
  var live = body.dataset.live, session = body.dataset.session;
  var status = document.getElementById("live-status");
  var generation = Number(body.dataset.generation || 0);
  var busy = false, again = false;

  function fragmentUrl() {
    var url = new URL(window.location.href);
    url.searchParams.set("fragment", "1");
    return url.toString();
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(fragmentUrl(), { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var main = document.getElementById("live");
        if (main) main.innerHTML = html;
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  function concerns(msg) {
    if (live === "any" || msg.any || !session) return true;
    return msg.sessions.indexOf(Number(session)) !== -1;
  }

  var source = new EventSource(body.dataset.events);
  source.addEventListener("hello", function (e) {
    if (status) { status.hidden = false; status.classList.remove("stale"); }
    var msg = JSON.parse(e.data);
    if (msg.generation !== generation) { generation = msg.generation; refresh(); }  // missed while away
  });
  source.addEventListener("change", function (e) {
    var msg = JSON.parse(e.data);
    generation = msg.generation;
    if (concerns(msg)) refresh();
  });
  source.onerror = function () { if (status) status.classList.add("stale"); };
})();
