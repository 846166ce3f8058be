// pan serve: keep the page current. Listens to /events (server-sent events); when the log
// changes, fetches this page's fresh content once and swaps it in. A page opened for "the
// current session" follows the table to a new session (header, game and all); a page opened
// for a named one stays on it and says the table has moved on. "live" shows only while the
// stream is open and heard from; otherwise the page says so and connects again. The stream's
// hello names the server's start, so a page knows a restarted server and reads the table afresh.
// Without JavaScript the page still works; it just does not update by itself.
(function () {
  "use strict";
  var body = document.body;
  var t = window.panT || function (m, v) { return m.replace(/\{(\w+)\}/g, function (a, k) { return v[k]; }); };
  if (!window.EventSource || !window.fetch || !body.dataset.events) return;
  var live = body.dataset.live, session = body.dataset.session;
  var follow = body.dataset.follow === "1";
  var opened = Number(body.dataset.current || 0);  // where the table was when this page was made
  var generation = Number(body.dataset.generation || 0);
  var instance = body.dataset.instance || "";  // the server's start: another one (a restart) is read afresh
  var quiet = (Number(body.dataset.keepalive || 15) * 2 + 2) * 1000;  // two keep-alives missed: gone
  var busy = false, again = false, whole = false, source = null, watchdog = null;

  function status(on) {
    var el = document.getElementById("live-status");
    if (!el) return;
    el.hidden = false;
    el.textContent = on ? t("● live") : t("not live · reconnecting…");
    el.classList.toggle("stale", !on);
    el.title = on ? t("updates by itself") : t("not receiving updates: trying again; reload to be sure");
  }

  function pageUrl(fragment) {
    var url = new URL(window.location.href);
    if (fragment) url.searchParams.set("fragment", "1");
    return url.toString();
  }

  function swapWhole(html) {  // the table moved to another session: header, tabs and content anew
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.body;
    document.title = doc.title;
    ["top", "tabs"].forEach(function (cls) {
      var old = document.querySelector("." + cls), now = fresh.querySelector("." + cls);
      if (old && now) old.replaceWith(now);
    });
    var main = document.getElementById("live"), freshMain = fresh.querySelector("#live");
    if (main && freshMain) main.innerHTML = freshMain.innerHTML;
    session = fresh.dataset.session;
    body.dataset.session = session;
    status(true);
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    var all = whole;
    whole = false;
    fetch(pageUrl(!all), { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (all) { swapWhole(html); return; }
        var main = document.getElementById("live");
        if (main) main.innerHTML = html;
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  function moved(current) {  // a page of a named session: say where the table is now
    var box = document.getElementById("moved"), text = document.getElementById("moved-text");
    if (!box || !text) return;
    // moved on since the page was opened (an old night looked up on purpose is not "moved on")
    var away = current && session && current.id !== Number(session) && current.id !== opened;
    box.hidden = !away;
    if (away) text.textContent = t("The table has moved on to {name}.", { name: current.name });
  }

  // Whether the table's current session is another than this page's, and what to do about it.
  function followed(current) {
    if (!session || !current || current.id === Number(session)) { moved(current); return false; }
    if (!follow) { moved(current); return false; }
    whole = true;
    refresh();
    return true;
  }

  function concerns(msg) {
    if (live === "any" || msg.any || !session) return true;
    return msg.sessions.indexOf(Number(session)) !== -1;
  }

  function heard() {
    clearTimeout(watchdog);
    watchdog = setTimeout(function () { status(false); connect(); }, quiet);
  }

  function connect() {
    if (source) source.close();
    source = new EventSource(body.dataset.events);
    source.addEventListener("hello", function (e) {
      status(true);
      heard();
      var msg = JSON.parse(e.data);
      var restarted = msg.instance !== instance;  // a new server counts its changes from 0 again
      instance = msg.instance;
      if (followed(msg.current)) { generation = msg.generation; return; }
      if (restarted || msg.generation !== generation) { generation = msg.generation; refresh(); }  // missed while away
    });
    source.addEventListener("change", function (e) {
      heard();
      var msg = JSON.parse(e.data);
      generation = msg.generation;
      if (followed(msg.current)) return;
      if (concerns(msg)) refresh();
    });
    source.addEventListener("ping", heard);
    source.onerror = function () {
      status(false);
      if (source.readyState === EventSource.CLOSED) {  // refused outright: the browser will not retry
        setTimeout(connect, 2000);
      }
    };
  }
  connect();
})();
