// The dealer's page: taps become actions, each with a key made here, so a retry records nothing twice.
(function () {
  "use strict";
  var meta = function (n) { return document.querySelector('meta[name="' + n + '"]').content; };
  var TOKEN = meta("pan-dealer"), CSRF = meta("pan-csrf");
  var SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var table = null, chosen = [], who = null, onto = null, pending = null, checkNo = 0;
  var $ = function (id) { return document.getElementById(id); };

  function newKey() {
    var b = new Uint8Array(16); crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }
  function headers() {
    return { "Content-Type": "application/json", "X-Pan-Dealer": TOKEN, "X-Pan-CSRF": CSRF };
  }
  function face(code) {
    var s = code.slice(-1);
    return code.slice(0, -1) + (SUIT[s] || s);
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e;
  }
  function say(lines, bad) {
    var s = $("said"); s.textContent = lines.join("\n"); s.className = "said" + (bad ? " bad" : "");
  }

  function load() {
    return fetch("/dealer/api/table", { headers: headers(), cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (t) { table = t; render(); });
  }

  function render() {
    var seats = $("seats"); seats.textContent = "";
    var inHand = table.in_hand || [];
    (table.seats || []).forEach(function (name) {
      var row = el("div", "seat"); var label = el("div");
      label.appendChild(el("div", "who", name));
      var p = table.hand && (table.hand.players || []).filter(function (x) { return x.name === name; })[0];
      label.appendChild(el("div", "status", p ? p.status + (p.stayed && p.status === "in" ? " (stays)" : "") : ""));
      row.appendChild(label);
      ["stay", "drop"].forEach(function (act) {
        var b = el("button", "", act === "stay" ? "Stay" : "Drop");
        b.type = "button"; b.dataset.act = act; b.dataset.player = name;
        b.disabled = !table.hand_open || inHand.indexOf(name) < 0;
        row.appendChild(b);
      });
      seats.appendChild(row);
    });
    var whoes = $("whoes"); whoes.textContent = "";
    inHand.forEach(function (name) {
      var b = el("button", "", name); b.type = "button"; b.dataset.who = name;
      b.setAttribute("aria-pressed", String(name === who)); whoes.appendChild(b);
    });
    if (inHand.indexOf(who) < 0) who = null;
    $("chosen-for").textContent = who ? "for " + who : "choose who";
    var melds = $("melds"); melds.textContent = "";
    var mine = table.hand && (table.hand.players || []).filter(function (x) { return x.name === who; })[0];
    (mine ? mine.melds : []).forEach(function (m) {
      var b = el("button", "", "meld " + m.number + ": " + m.cards.map(face).join(" "));
      b.type = "button"; b.dataset.onto = m.number; b.setAttribute("aria-pressed", String(onto === m.number));
      melds.appendChild(b);
    });
    var u = table.undo || {};
    $("undo-preview").textContent = [u.text].concat(u.payments || []).join("\n");
    renderChosen();
  }

  function renderChosen() {
    var c = $("chosen"); c.textContent = "";
    chosen.forEach(function (code, i) {
      var b = el("button", "face" + (/[HD]$/.test(code) ? " red" : ""), face(code));
      b.type = "button"; b.dataset.remove = i; b.setAttribute("aria-label", "take back " + face(code));
      c.appendChild(b);
    });
    check();
  }

  function ontoCards() {
    var mine = table && table.hand && (table.hand.players || []).filter(function (x) { return x.name === who; })[0];
    var m = mine && mine.melds.filter(function (x) { return x.number === onto; })[0];
    return m ? m.cards.join(" ") : null;
  }

  function check() {
    var v = $("verdict");
    if (!chosen.length) { v.textContent = ""; v.className = "verdict"; return; }
    var n = ++checkNo, body = { cards: chosen.join(" ") }, base = onto !== null ? ontoCards() : null;
    if (base) body.onto = base;
    fetch("/dealer/api/check", { method: "POST", headers: headers(), body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (n !== checkNo) return;
        v.textContent = d.text || (d.error + (d.hint ? ": " + d.hint : ""));
        v.className = "verdict " + (d.valid ? "good" : "bad");
        v.dataset.cards = body.cards;
      }).catch(function () { v.textContent = ""; });
  }

  // One action at a time, in the order tapped. The same tap again (a double tap, or the same
  // button while its answer is awaited or shortly after) goes with the same key, so the server
  // answers it with the first answer instead of recording it twice.
  var queue = [], last = null, DOUBLE_TAP_MS = 2000;

  function send(body) {
    var sig = JSON.stringify(body);
    if (pending && pending.sig === sig) { if (pending.failed) post(); return; }
    if (queue.some(function (q) { return q.sig === sig; })) return;
    var again = last && last.sig === sig && Date.now() - last.at < DOUBLE_TAP_MS;
    queue.push({ key: again ? last.key : newKey(), body: body, sig: sig });
    if (!pending) next();
  }

  function next() {
    pending = queue.shift() || null;
    if (pending) post();
  }

  function post() {
    var p = pending, data = Object.assign({ key: p.key }, p.body);
    p.failed = false;
    $("net").hidden = true;
    document.body.classList.add("busy");
    return fetch("/dealer/api/action", { method: "POST", headers: headers(), body: JSON.stringify(data) })
      .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, d: d }; }); })
      .then(function (res) {
        last = { key: p.key, sig: p.sig, at: Date.now() };
        if (res.ok) {
          say(res.d.lines && res.d.lines.length ? res.d.lines : ["Recorded."]);
          if (["meld", "add", "out"].indexOf(p.body.action) >= 0) { chosen = []; onto = null; }
        } else {
          say([res.d.error + (res.d.hint ? ": " + res.d.hint : "")], true);
        }
        pending = null;
        return load().catch(function () {}).then(next);
      }, function () {
        p.failed = true;
        $("net-text").textContent = "The connection dropped: the last tap may not have arrived. " +
          "Retry sends the same tap again, and it is recorded once.";
        $("net").hidden = false;
      })
      .then(function () {
        document.body.classList.remove("busy");
        document.body.dataset.answered = String(Number(document.body.dataset.answered || 0) + 1);
      });
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest("button"); if (!t) return;
    if (t.id === "retry") { if (pending && pending.failed) post(); return; }
    if (t.id === "clear") { chosen = []; onto = null; render(); return; }
    if (t.dataset.card) { chosen.push(t.dataset.card); renderChosen(); return; }
    if (t.dataset.remove !== undefined) { chosen.splice(Number(t.dataset.remove), 1); renderChosen(); return; }
    if (t.dataset.who) { who = t.dataset.who; onto = null; render(); return; }
    if (t.dataset.onto) { var n = Number(t.dataset.onto); onto = onto === n ? null : n; render(); return; }
    var act = t.dataset.act; if (!act) return;
    if (act === "deal") return send({ action: "deal" });
    if (act === "stay" || act === "drop") return send({ action: act, player: t.dataset.player });
    if (act === "undo") return send({ action: "undo", seq: table.undo && table.undo.seq });
    if (!who) { say(["choose who first: tap a name above the cards"], true); return; }
    var body = { action: act, player: who, cards: chosen.join(" ") };
    if (onto !== null && act !== "meld") body.to = onto;
    send(body);
  });

  $("more").addEventListener("submit", function (e) {
    e.preventDefault();
    var f = e.target, body = { action: f.action.value };
    ["player", "cards", "meld", "chips"].forEach(function (n) { if (f[n].value.trim()) body[n] = f[n].value.trim(); });
    if (body.action === "split" && body.cards) { body.into = body.cards; delete body.cards; }
    if (body.action === "spread" && body.cards) { body.melds = body.cards; delete body.cards; }
    if (body.action === "borrow" && body.meld) { body.from = body.meld; delete body.meld; }
    if (body.action === "lay" && body.cards) { body.melds = body.cards; delete body.cards; }
    send(body);
  });

  // The table can change from another dealer (a `pan` command): look again every second.
  setInterval(function () { if (!pending) load().catch(function () {}); }, 1000);
  load();
})();
