// The dealer's page, laid out from the game's declared actions (/dealer/api/table "actions"):
// an action that names one player gets a button on each seat, one that takes a player and cards
// a button under the card picker, one with nothing to choose a button of its own, any other a
// form of its fields. Taps become actions, each with a key made here, so a retry records nothing twice.
(function () {
  "use strict";
  var meta = function (n) { return document.querySelector('meta[name="' + n + '"]').content; };
  var TOKEN = meta("pan-dealer"), CSRF = meta("pan-csrf");
  var FOLLOW = meta("pan-follow") === "1", NAMED = meta("pan-named") === "1";
  var SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var PLAYERS = ["player", "player in hand"], CARDISH = ["cards", "card", "melds"];
  var SEP = "/";
  var table = null, chosen = [], who = null, onto = null, checkNo = 0, formFor = null;
  var $ = function (id) { return document.getElementById(id); };
  var t = window.panT, tn = window.panTn;  // the page's words (words.js)

  function newKey() {
    var b = new Uint8Array(16); crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }
  function headers() {
    var h = { "Content-Type": "application/json", "X-Pan-Dealer": TOKEN, "X-Pan-CSRF": CSRF };
    if (FOLLOW && !NAMED) h["X-Pan-Follow"] = "1";  // the current session, whichever it is now
    return h;
  }
  function face(code) {
    if (code === SEP) return SEP;
    var s = code.slice(-1), r = code.slice(0, -1);
    return (r === "T" ? "10" : r) + (SUIT[s] || s);
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e;
  }
  function say(lines, bad) {
    var s = $("said"); s.textContent = lines.join("\n"); s.className = "said" + (bad ? " bad" : "");
  }
  function isPlayer(p) { return PLAYERS.indexOf(p.kind) >= 0; }
  function of(face) { return (table.actions || []).filter(function (a) { return a.face === face; }); }
  function named(name) { return (table.actions || []).filter(function (a) { return a.name === name; })[0]; }
  function allowed(a) {
    return a.when === "hand" ? !!table.hand_open : a.when === "between" ? !table.hand_open : true;
  }

  // The table, read afresh: one read at a time (a read asked for meanwhile goes once after it),
  // and the same table again answered by the server in a few bytes (its ETag).
  var etag = "", loading = null, loadAgain = false;
  function load() {
    if (loading) { loadAgain = true; return loading; }
    var h = headers(); if (etag) h["If-None-Match"] = etag;
    loading = fetch("/dealer/api/table", { headers: h, cache: "no-store" })
      .then(function (r) {
        if (r.status === 304) return;
        if (!r.ok) return Promise.reject(r.status);  // kept as it was: the refusal is the tap's to say
        etag = r.headers.get("ETag") || "";
        return r.json().then(function (d) { table = d; render(); });
      })
      .then(function () { loading = null; if (loadAgain) { loadAgain = false; return load(); } },
            function (e) { loading = null; loadAgain = false; return Promise.reject(e); });
    return loading;
  }

  // -- the table: where the game is, its buttons, a row of buttons for each seat ------------------
  // The picker lays out the game's own pack: laid out anew when the table moves to another game.
  function renderPack() {
    var pack = table.pack || [], picker = $("picker");
    if (picker.dataset.pack === pack.join(" ")) return;
    picker.dataset.pack = pack.join(" "); picker.textContent = "";
    pack.forEach(function (code) {
      var b = el("button", "pick" + (/[HD]$/.test(code) ? " red" : ""), face(code));
      b.type = "button"; b.dataset.card = code; picker.appendChild(b);
    });
  }

  // What the dealer keeps in view: the night's standings, the tops, who deals, the winner.
  function renderView() {
    $("deals").textContent = table.deals || "";
    var w = $("winner");
    w.hidden = !table.result;
    w.textContent = table.result ? t("Hand over: {result}.", { result: table.result }) : "";
    var list = $("standings"); list.textContent = "";
    (table.standings || []).forEach(function (r) {
      var li = el("li"); li.appendChild(el("span", "name", r.name));
      var said = r.chips !== null && r.chips !== undefined ?
        tn("{chips} chip", "{chips} chips", Math.abs(r.chips), { chips: r.text }) : r.text;
      if (r.money) said = t("{chips} ({money})", { chips: said, money: r.money });  // the money in the session's currency
      li.appendChild(el("span", "value" + (r.chips > 0 ? " up" : r.chips < 0 ? " down" : ""), said));
      list.appendChild(li);
    });
    var tops = $("tops");
    tops.hidden = table.tops === null || table.tops === undefined;
    tops.textContent = tops.hidden ? "" : tn("Tops: {n} chip.", "Tops: {n} chips.", table.tops, { n: table.tops });
    var moved = NAMED && table.current && table.current !== table.session;
    $("moved").hidden = !moved;
    $("moved-text").textContent = moved ? t("The table has moved on to {current}; this page still records {session}.",
      { current: table.current, session: table.session }) : "";
  }

  // An event recorded elsewhere (the keyboard, another phone) is announced to a screen reader in
  // the page's words; the page's own taps are said by their answer. While a tap of this page waits
  // for its answer, the event may be its own: decided once the answer has come.
  var heardAt = null, ours = {};
  function announce() {
    var l = table.last, at = l ? table.session_uid + ":" + l.seq : "";
    if (heardAt === null || at === heardAt) { heardAt = at; return; }  // the page's first table: nothing new
    if (inflight) return;
    heardAt = at;
    if (l && !ours[at]) $("heard").textContent = l.text;
  }

  function render() {
    announce();
    $("where").textContent = t("{session} \u00b7 the dealer", { session: table.session });
    document.title = t("{session} \u00b7 the dealer", { session: table.session });
    renderPack();
    renderView();
    $("status").textContent = [table.title, table.status, table.contract].filter(Boolean).join(" \u00b7 ");
    var still = $("still"); still.textContent = table.still_to_record || ""; still.hidden = !table.still_to_record;
    var buttons = $("buttons"); buttons.textContent = "";
    of("button").forEach(function (a) {
      var b = el("button", "big", a.label); b.type = "button"; b.dataset.act = a.name; b.title = a.help;
      b.disabled = !allowed(a); buttons.appendChild(b);
    });
    var seats = $("seats"); seats.textContent = "";
    var inHand = table.in_hand || [], seatActs = of("seat");
    (table.order || table.seats || []).forEach(function (name) {  // declarations go from the eldest
      var row = el("div", "seat"); var label = el("div", "label");
      label.appendChild(el("div", "who", name));
      var p = table.hand && (table.hand.players || []).filter(function (x) { return x.name === name; })[0];
      var won = table.winner && table.winner === name;
      label.appendChild(el("div", "status", won ? t("won the hand") :
        p ? (p.stayed && p.status === "in" ? t("{status} (stays)", { status: window.panStatus(p.status) }) :
          window.panStatus(p.status)) : ""));
      row.appendChild(label);
      seatActs.forEach(function (a) {
        var b = el("button", "", a.label); b.type = "button"; b.dataset.act = a.name; b.dataset.player = name;
        b.title = a.help;
        b.disabled = !allowed(a) || (a.params[0].kind === "player in hand" && inHand.indexOf(name) < 0);
        row.appendChild(b);
      });
      seats.appendChild(row);
    });
    renderPicker();
    renderForm();
    var u = table.undo || {}, r = table.redo || {};
    $("undo-preview").textContent = [u.text].concat(u.payments || []).concat(r.seq ? [r.text] : []).join("\n");
    $("redo").disabled = !r.seq; $("redo").title = r.text || "";
    renderNewGame();
  }

  // -- the card picker: who, onto which meld, the cards, then the action -------------------------
  function pickerActs() { return of("picker"); }
  function pickerPlayers() {
    var acts = pickerActs();
    var inHandOnly = acts.length && acts.every(function (a) { return a.params[0].kind === "player in hand"; });
    return inHandOnly ? (table.in_hand || []) : (table.players || table.seats || []);
  }
  function ontoParam(a) { return a.params.filter(function (p) { return p.onto; })[0]; }

  function renderPicker() {
    var acts = pickerActs(), box = $("picker-box");
    box.hidden = !acts.length;  // a pack with no action to take its cards is no picker
    var names = pickerPlayers(), whoes = $("whoes"); whoes.textContent = "";
    names.forEach(function (name) {
      var b = el("button", "", name); b.type = "button"; b.dataset.who = name;
      b.setAttribute("aria-pressed", String(name === who)); whoes.appendChild(b);
    });
    if (names.indexOf(who) < 0) who = null;
    $("chosen-for").textContent = who ? t("for {player}", { player: who }) : t("choose who");
    var anyMeld = acts.some(function (a) { var p = ontoParam(a); return p && p.onto === "any"; });
    var melds = $("melds"); melds.textContent = "";
    (table.melds || []).filter(function (m) { return anyMeld || (who && m.owner === who); }).forEach(function (m) {
      var b = el("button", "", t("meld {number}: {cards}", { number: m.number, cards: m.cards.map(face).join(" ") }));
      b.type = "button"; b.dataset.onto = m.number; b.setAttribute("aria-pressed", String(onto === m.number));
      melds.appendChild(b);
    });
    if (!(table.melds || []).some(function (m) { return m.number === onto; })) onto = null;
    $("separate").hidden = !acts.some(function (a) { return a.params.some(function (p) { return p.kind === "melds"; }); });
    var counts = [];
    acts.forEach(function (a) { a.params.forEach(function (p) { if (p.kind === "count" && !p.onto) counts.push(p); }); });
    $("number-row").hidden = !counts.length;
    if (counts.length) $("number-label").textContent = counts[0].name.charAt(0).toUpperCase() + counts[0].name.slice(1);
    var row = $("picker-acts");
    Array.prototype.slice.call(row.querySelectorAll("button[data-act]")).forEach(function (b) { row.removeChild(b); });
    acts.forEach(function (a) {
      var b = el("button", "big", a.label); b.type = "button"; b.dataset.act = a.name; b.title = a.help;
      b.disabled = !allowed(a); row.insertBefore(b, $("separate"));
    });
    renderChosen();
  }

  function renderChosen() {
    var c = $("chosen"); c.textContent = "";
    chosen.forEach(function (code, i) {
      var b = el("button", "face" + (/[HD]$/.test(code) ? " red" : ""), face(code));
      b.type = "button"; b.dataset.remove = i; b.setAttribute("aria-label", t("take back {card}", { card: face(code) }));
      c.appendChild(b);
    });
    check();
  }

  function ontoCards() {
    var m = (table.melds || []).filter(function (x) { return x.number === onto; })[0];
    return m ? m.cards.join(" ") : null;
  }
  function chosenText() { return chosen.join(" "); }

  function check() {
    var v = $("verdict");
    // Several melds (/ between them: new melds, a split of the chosen meld, a contract's lay) are
    // judged as the action that takes them would record them; one meld by the game's own check.
    var several = chosen.indexOf(SEP) >= 0;
    if (!chosen.length || !(several ? table.checks_melds : table.checks_cards)) {
      v.textContent = ""; v.className = "verdict"; delete v.dataset.cards; return;
    }
    var n = ++checkNo, body = { cards: chosenText() }, base = onto !== null ? ontoCards() : null;
    if (several) { if (who) body.player = who; if (onto !== null) body.meld = onto; }
    else if (base) body.onto = base;
    else if (who) body.player = who;  // no meld chosen: Add finds the one of theirs the cards fit
    fetch("/dealer/api/check", { method: "POST", headers: headers(), body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (n !== checkNo) return;
        v.textContent = d.text || (d.error + (d.hint ? ": " + d.hint : ""));
        v.className = "verdict " + (d.valid ? "good" : "bad");
        v.dataset.cards = body.cards;
      }).catch(function () { v.textContent = ""; });
  }

  // What the picker holds, for one of its actions: the player, the cards, the meld, the number.
  function pickerBody(a) {
    var body = { action: a.name }, number = $("number").value.trim();
    a.params.forEach(function (p, i) {
      if (i === 0 && isPlayer(p)) body[p.name] = who;
      else if (CARDISH.indexOf(p.kind) >= 0) { if (chosen.length) body[p.name] = chosenText(); }
      else if (p.onto) { if (onto !== null) body[p.name] = onto; }
      else if (p.kind === "count" && number) body[p.name] = number;
    });
    // Counted points instead of the cards: the number stands for them.
    if (number && a.params.some(function (p) { return p.kind === "count" && !p.onto; })) {
      a.params.forEach(function (p) { if (CARDISH.indexOf(p.kind) >= 0 && !p.required) delete body[p.name]; });
    }
    return body;
  }

  // -- the form: any other action, its fields made from its parameters ---------------------------
  function field(p) {
    var label = el("label", "", p.required ? p.help : t("{help} (optional)", { help: p.help }));
    var input;
    if (isPlayer(p)) {
      input = el("select");
      if (!p.required) input.appendChild(el("option", "", ""));
      var names = p.kind === "player in hand" ? (table.in_hand || []) : (table.players || []);
      names.forEach(function (n) { var o = el("option", "", n); o.value = n; input.appendChild(o); });
    } else if (p.kind === "yes or no") {
      input = el("input"); input.type = "checkbox";
    } else if (p.kind === "a card each") {
      var group = el("div", "each");
      (table.in_hand && table.in_hand.length ? table.in_hand : table.players || []).forEach(function (n) {
        var l = el("label", "", n), i = el("input"); i.dataset.each = n; i.placeholder = t("a card");
        l.appendChild(i); group.appendChild(l);
      });
      group.dataset.param = p.name; label.appendChild(group);
      return label;
    } else {
      input = el("input");
      if (p.kind === "meld number" || p.kind === "count") input.inputMode = "numeric";
      else input.placeholder = p.kind === "melds" ? t("e.g. 7S 7H 7D / QC QD QS") : p.kind === "card" ? t("e.g. KH") :
        p.kind === "cards" ? t("e.g. KH QH") : t("a name");
    }
    input.dataset.param = p.name; input.name = p.name;
    label.appendChild(input);
    return label;
  }

  function renderForm() {
    var acts = of("form"), select = $("more-action");
    $("more-box").hidden = !acts.length;
    var names = acts.map(function (a) { return a.name; }).join(" ");
    if (select.dataset.names !== names) {
      select.textContent = "";
      acts.forEach(function (a) { var o = el("option", "", a.label); o.value = a.name; select.appendChild(o); });
      select.dataset.names = names;
    }
    if (formFor === select.value && $("more-fields").children.length) return;  // keep what is typed
    formFor = select.value;
    var a = named(formFor), fields = $("more-fields"); fields.textContent = "";
    $("more-help").textContent = a ? a.help : "";
    (a ? a.params : []).forEach(function (p) { fields.appendChild(field(p)); });
  }

  function formBody() {
    var a = named($("more-action").value), body = { action: a.name };
    a.params.forEach(function (p) {
      var input = $("more-fields").querySelector('[data-param="' + p.name + '"]');
      if (!input) return;
      if (p.kind === "yes or no") { body[p.name] = input.checked; return; }
      if (p.kind === "a card each") {
        var shown = {};
        Array.prototype.forEach.call(input.querySelectorAll("input[data-each]"), function (i) {
          if (i.value.trim()) shown[i.dataset.each] = i.value.trim();
        });
        body[p.name] = shown; return;
      }
      if (input.value.trim()) body[p.name] = input.value.trim();
    });
    return body;
  }

  // -- the outbox: every tap kept in the browser's storage until the server has answered it -------
  // A tap is queued with a key made now and the session it was made on, then sent one at a time,
  // in the order tapped. A tap that cannot reach the server (the Wi-Fi, a stopped server) waits
  // there: a reload, a closed browser or a restarted server loses nothing, and it goes again by
  // itself with the same key, so the server records it once. A refusal stops the rest until the
  // dealer sends the refused tap again or drops it. The same tap again (a double tap, or the same
  // button while its answer is awaited or shortly after) goes with the same key, so the server
  // answers it with the first answer instead of recording it twice.
  var OUTBOX = "pan-dealer-outbox", DOUBLE_TAP_MS = 2000, MAX_DELAY_MS = 15000;
  var last = null, inflight = null, stopped = null, afters = {}, timer = null, delay = 0;
  var streamUp = true, tapFailed = false, stored = true, memory = [];

  function outbox() {
    if (!stored) return memory.slice();
    try { var v = JSON.parse(localStorage.getItem(OUTBOX) || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { stored = false; return memory.slice(); }
  }
  function keep(items) {
    memory = items.slice();
    if (!stored) return;
    try { localStorage.setItem(OUTBOX, JSON.stringify(items)); } catch (e) { stored = false; }  // this page only
  }
  function forget(keys) {
    keep(outbox().filter(function (q) { return keys.indexOf(q.key) < 0; }));
  }

  // The tap in its own words, as the dock names it: "Meld for Ana: 7♠ 7♥ 7♦".
  function tapWords(body) {
    if (body.action === "undo") return t("Undo");
    if (body.action === "redo") return t("Redo");
    var a = named(body.action), words = a ? a.label : String(body.action);
    var first = a && a.params[0], player = first && isPlayer(first) ? body[first.name] : null;
    if (player) words = t("{action} for {player}", { action: words, player: player });
    var cards = a ? a.params.filter(function (p) { return CARDISH.indexOf(p.kind) >= 0 && typeof body[p.name] === "string"; })
      .map(function (p) { return body[p.name].split(/\s+/).filter(Boolean).map(face).join(" "); }) : [];
    return cards.length ? words + ": " + cards.join(" ") : words;
  }
  function refusedWords(item, d) {
    var why = (d && d.error ? d.error : String(d && d.status || "")) + (d && d.hint ? ": " + d.hint : "");
    return t("{tap} was refused: {why}", { tap: item.words, why: why });
  }

  // The dock's notice: not live, a tap that did not arrive, how many wait.
  function shown() {
    var n = outbox().length, net = $("net"), lines = [];
    if (tapFailed) lines.push(t("The connection dropped: the last tap may not have arrived. " +
      "Retry sends the same tap again, and it is recorded once."));
    else if (!streamUp) lines.push(t("not live · reconnecting…"));
    var telling = tapFailed || !streamUp || !!stopped;
    if (n && telling) lines.push(tn("{n} tap waiting", "{n} taps waiting", n, { n: n }));
    net.hidden = !lines.length;
    var text = lines.join(" ");
    if ($("net-text").textContent !== text) $("net-text").textContent = text;  // a status region: said when it changes
    document.body.dataset.waiting = String(n);
    $("stop").hidden = !stopped;
    $("stop-go").hidden = !(stopped && stopped.d && stopped.d.code === "moved_on");
    document.body.classList.toggle("busy", !!inflight || (n > 0 && !stopped && !tapFailed));
  }

  function send(body, after) {
    body = Object.assign({}, body, { session: table.session_uid });  // the game the tap was made on
    var sig = JSON.stringify(body), items = outbox();
    if (items.some(function (q) { return q.sig === sig; })) { flush(true); return; }  // already waiting: sent once
    var again = last && last.sig === sig && Date.now() - last.at < DOUBLE_TAP_MS;
    var item = { key: again ? last.key : newKey(), body: body, sig: sig, words: tapWords(body), at: Date.now() };
    items.push(item); keep(items);
    if (after) afters[item.key] = after;
    flush(true);
  }

  function later() {
    clearTimeout(timer);
    delay = Math.min(MAX_DELAY_MS, delay ? delay * 2 : 1000);
    timer = setTimeout(function () { timer = null; flush(); }, delay);
  }

  function answered() {
    document.body.dataset.answered = String(Number(document.body.dataset.answered || 0) + 1);
  }

  function flush(now) {
    if (now) { delay = 0; clearTimeout(timer); timer = null; }
    if (inflight || stopped) { shown(); return; }
    var items = outbox();
    if (!items.length) { shown(); return; }
    var p = inflight = items[0];
    shown();
    fetch("/dealer/api/action", { method: "POST", headers: headers(), body: JSON.stringify(Object.assign({ key: p.key }, p.body)) })
      .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, status: r.status, d: d }; }); })
      .then(function (res) {
        tapFailed = false; delay = 0;
        if (res.status === 429 || res.status === 502 || res.status === 503 || res.status === 504) {
          inflight = null; later(); shown(); answered(); return;  // not now: the same tap in a moment
        }
        last = { key: p.key, sig: p.sig, body: p.body, at: Date.now() };
        if (res.ok) {
          forget([p.key]);
          if (res.d.seq) ours[p.body.session + ":" + res.d.seq] = true;  // said in the answer: not announced again
          say(res.d.lines && res.d.lines.length ? res.d.lines : [t("Recorded.")]);
          if (afters[p.key]) { afters[p.key](); render(); }  // the picker cleared, even if the table is the same
        } else if (outbox().length > 1 || p.waited || res.d.code === "moved_on") {
          stopped = { item: p, d: res.d };  // the rest waits: rulings depend on the order of taps
          say([refusedWords(p, res.d)], true);
        } else {
          forget([p.key]);  // tapped just now, nothing behind it: said, and gone
          say([refusedWords(p, res.d)], true);
        }
        delete afters[p.key];
        // The tap stays in flight until the page shows the table after its answer (a tap meanwhile
        // waits its turn), and the double-tap window runs from then.
        return load().catch(function () {}).then(function () {
          if (last && last.key === p.key) last.at = Date.now();
          inflight = null; announce(); answered(); flush();
        });
      }, function () {
        // Not answered: it waits, marked so, and goes again by itself. The picker is free for the next tap.
        inflight = null; tapFailed = true;
        keep(outbox().map(function (q) { q.waited = true; return q; }));
        if (afters[p.key]) { afters[p.key](); delete afters[p.key]; render(); }
        later(); shown(); answered();
      });
  }

  function dropStopped() {
    if (!stopped) return 0;
    var gone = stopped.item, all = stopped.d && stopped.d.code === "moved_on";
    // the table moved on: every tap of that game waits in vain, so all of them go
    var keys = outbox().filter(function (q) { return q.key === gone.key || (all && q.body.session === gone.body.session); })
      .map(function (q) { return q.key; });
    forget(keys); stopped = null;
    say([keys.length > 1 ? tn("{n} tap of that game dropped.", "{n} taps of that game dropped.", keys.length, { n: keys.length })
      : t("Dropped: {tap}", { tap: gone.words })]);
    return keys.length;
  }

  function cleared() { chosen = []; onto = null; $("number").value = ""; }

  document.addEventListener("click", function (e) {
    var t = e.target.closest("button"); if (!t) return;
    if (t.id === "retry") { if (!streamUp) connect(); flush(true); return; }
    if (t.id === "stop-again") { stopped = null; flush(true); return; }
    if (t.id === "stop-drop") { dropStopped(); flush(true); return; }
    if (t.id === "stop-go") {
      dropStopped();
      if (NAMED) { location.href = $("moved-link").href; return; }  // this page kept to one session
      load().catch(function () {}).then(function () { flush(true); });
      return;
    }
    if (t.id === "clear") { cleared(); render(); return; }
    if (t.id === "separate") { if (chosen.length && chosen[chosen.length - 1] !== SEP) chosen.push(SEP); renderChosen(); return; }
    if (t.dataset.card) { chosen.push(t.dataset.card); renderChosen(); return; }
    if (t.dataset.remove !== undefined) { chosen.splice(Number(t.dataset.remove), 1); renderChosen(); return; }
    if (t.dataset.who) { if (who !== t.dataset.who) { cleared(); } who = t.dataset.who; render(); return; }
    if (t.dataset.onto) { var n = Number(t.dataset.onto); onto = onto === n ? null : n; render(); return; }
    var act = t.dataset.act; if (!act) return;
    if (act === "undo") return send({ action: "undo", seq: table.undo && table.undo.seq });
    if (act === "redo") return send({ action: "redo", seq: table.redo && table.redo.seq });
    var a = named(act); if (!a) return;
    if (a.face === "seat") { var b = { action: act }; b[a.params[0].name] = t.dataset.player; return send(b); }
    if (a.face === "button") return send({ action: act });
    if (a.face === "picker") {
      if (!who) { say([t("choose who first: tap a name above the cards")], true); return; }
      // Tapped again just after it was recorded (the picker already cleared): the same tap again.
      var again = last && last.body && last.body.action === act && last.body[a.params[0].name] === who;
      if (again && !chosen.length && !$("number").value.trim() && Date.now() - last.at < DOUBLE_TAP_MS) {
        return send(last.body);
      }
      return send(pickerBody(a), function () { cleared(); });
    }
  });

  $("more-action").addEventListener("change", function () { formFor = null; renderForm(); });
  $("more").addEventListener("submit", function (e) {
    e.preventDefault();
    send(formBody());
  });

  // -- the next game of the night: offered between hands, from the games the server knows -------
  // One key per filled-in form: a double tap, or a retry after a dropped answer, starts one game.
  var ng = null, ngSeats = [], ngProposed = "", ngLast = null, ngBusy = false;

  function renderNewGame() {
    var between = !table.hand_open;
    $("newgame-box").hidden = !between;
    if (!between) { $("ng").hidden = true; $("ng-open").hidden = false; }
  }
  function ngGame() { return (ng.games || []).filter(function (g) { return g.name === $("ng-game").value; })[0]; }
  function fillSelect(select, items, chosen) {
    select.textContent = "";
    items.forEach(function (it) {
      var o = el("option", "", it.label); o.value = it.value; select.appendChild(o);
    });
    if (items.some(function (it) { return it.value === chosen; })) select.value = chosen;
  }
  function ngGameChosen() {
    var g = ngGame(), name = $("ng-name");
    if (!name.value || name.value === ngProposed) name.value = g.proposed;  // keep a name typed in
    ngProposed = g.proposed;
    fillSelect($("ng-preset"), g.presets.map(function (p) {
      return { value: p.name, label: p.note ? p.name + ": " + p.note : p.name };
    }), g.preset);
    $("ng-chips-label").hidden = !g.chips;
  }
  function ngRenderSeats() {
    var list = $("ng-seats"), dealer = $("ng-dealer").value; list.textContent = "";
    ngSeats.forEach(function (name, i) {
      var li = el("li"); li.appendChild(el("span", "name", name));
      [["up", "\u2191", t("move {name} up", { name: name })], ["down", "\u2193", t("move {name} down", { name: name })],
       ["remove", "\u2715", t("remove {name}", { name: name })]].forEach(function (b) {
        var btn = el("button", "quiet", b[1]); btn.type = "button";
        btn.dataset.ng = b[0]; btn.dataset.seat = i; btn.setAttribute("aria-label", b[2]);
        btn.disabled = (b[0] === "up" && i === 0) || (b[0] === "down" && i === ngSeats.length - 1);
        li.appendChild(btn);
      });
      list.appendChild(li);
    });
    fillSelect($("ng-dealer"), ngSeats.map(function (n) { return { value: n, label: n }; }), dealer);
  }
  function ngOpen() {
    return fetch("/dealer/api/new-game", { headers: headers(), cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        ng = d; ngSeats = (d.players || []).slice(); ngProposed = ""; $("ng-name").value = "";
        fillSelect($("ng-game"), d.games.map(function (g) { return { value: g.name, label: g.title }; }), d.game);
        ngGameChosen();
        $("ng-chips").value = d.chip_value || "";  // the night's, as the page's language writes it
        fillSelect($("ng-currency"), d.currencies || [], d.currency || "");  // the night's, unless changed
        fillSelect($("ng-language"), d.languages || [], d.language || "");
        $("ng-dealer").value = "";
        ngRenderSeats();
        $("ng").hidden = false; $("ng-open").hidden = true;
      }, function () { say([t("The connection dropped: tap New game again.")], true); });
  }
  function ngAdd() {
    var input = $("ng-add-name"), name = input.value.trim();
    if (!name) { say([t("Type the player's name, then tap Add.")], true); return; }
    ngSeats.push(name); input.value = ""; ngRenderSeats();
  }
  // The session the form was filled from goes with the tap: the server refuses it if the table
  // moved on since (the page may follow the table there while the form is open).
  // A game without chips sends no chip value: it keeps the night's for the games after it.
  function ngBody() {
    var g = ngGame(), body = { game: g.name, name: $("ng-name").value.trim(), players: ngSeats.slice(),
      dealer: $("ng-dealer").value, preset: $("ng-preset").value,
      currency: $("ng-currency").value, language: $("ng-language").value,
      session: typeof ng.session_uid === "string" ? ng.session_uid : (table.session_uid || "") };
    if (g.chips) body.chip_value = $("ng-chips").value.trim();
    return body;
  }
  function ngStart() {
    if (ngBusy) return;  // the same tap while its answer is awaited
    var body = ngBody(), sig = JSON.stringify(body);
    var key = ngLast && ngLast.sig === sig ? ngLast.key : newKey();
    ngLast = { sig: sig, key: key }; ngBusy = true;
    document.body.classList.add("busy");
    fetch("/dealer/api/new-game", { method: "POST", headers: headers(),
      body: JSON.stringify(Object.assign({ key: key }, body)) })
      .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, d: d }; }); })
      .then(function (res) {
        if (!res.ok) {
          say([res.d.error + (res.d.hint ? ": " + res.d.hint : "")], true);
          if (res.d.code === "moved_on") {  // another phone or the keyboard started a game: show it
            $("ng").hidden = true; $("ng-open").hidden = false;
            return load().catch(function () {});
          }
          return;
        }
        say(res.d.lines);
        $("ng").hidden = true; $("ng-open").hidden = false;
        cleared(); who = null;
        if (NAMED) { location.href = $("moved-link").href; return; }  // this page kept to one session
        return load();
      }, function () {
        say([t("The connection dropped: tap Start the game again, and it is started once.")], true);
      })
      .then(function () {
        ngBusy = false; document.body.classList.remove("busy");
        document.body.dataset.answered = String(Number(document.body.dataset.answered || 0) + 1);
      });
  }
  $("ng-open").addEventListener("click", function () { ngOpen(); });
  $("ng-cancel").addEventListener("click", function () { $("ng").hidden = true; $("ng-open").hidden = false; });
  $("ng-game").addEventListener("change", ngGameChosen);
  $("ng-add").addEventListener("click", ngAdd);
  $("ng-add-name").addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); ngAdd(); }
  });
  $("ng-seats").addEventListener("click", function (e) {
    var t = e.target.closest("button[data-ng]"); if (!t) return;
    var i = Number(t.dataset.seat), j = t.dataset.ng === "up" ? i - 1 : i + 1;
    if (t.dataset.ng === "remove") ngSeats.splice(i, 1);
    else if (j >= 0 && j < ngSeats.length) { var x = ngSeats[i]; ngSeats[i] = ngSeats[j]; ngSeats[j] = x; }
    ngRenderSeats();
  });
  $("ng").addEventListener("submit", function (e) { e.preventDefault(); ngStart(); });

  // The table can change from another dealer (at the keyboard) or move to another session: the
  // players' stream says when (the dealer's address opens it too), and a slow look catches
  // anything it missed. The stream's hello names the server's start: another start (a restarted
  // server) or another count of changes than the page was made at, and the table is read afresh.
  var instance = meta("pan-instance"), generation = Number(meta("pan-generation") || 0);
  var quiet = (Number(meta("pan-keepalive") || 15) * 2 + 2) * 1000;  // two keep-alives missed: gone
  var SAFETY_MS = 45000, stream = null, watchdog = null;
  function refresh() { load().catch(function () {}); }
  function heard() {
    clearTimeout(watchdog);
    watchdog = setTimeout(function () { streamUp = false; shown(); connect(); }, quiet);
  }
  function connect() {
    if (!window.EventSource) return;
    if (stream) stream.close();
    stream = new EventSource("/events?dealer=" + encodeURIComponent(TOKEN));
    stream.addEventListener("hello", function (e) {
      heard(); streamUp = true;
      var msg = {}; try { msg = JSON.parse(e.data); } catch (x) { /* an old server: read afresh */ }
      if (msg.instance !== instance || msg.generation !== generation) refresh();
      instance = msg.instance; generation = msg.generation;
      flush(true);  // the server answers again: the waiting taps go now
    });
    stream.addEventListener("change", function (e) {
      heard();
      try { generation = JSON.parse(e.data).generation; } catch (x) { /* read afresh all the same */ }
      refresh();
    });
    stream.addEventListener("ping", heard);
    stream.onerror = function () {
      streamUp = false; shown();
      if (stream.readyState === EventSource.CLOSED) setTimeout(connect, 2000);  // refused: the browser will not retry
    };
  }
  window.addEventListener("online", function () { connect(); flush(true); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { flush(true); refresh(); }
  });
  window.addEventListener("storage", function (e) { if (e.key === OUTBOX) shown(); });  // another tab's taps
  setInterval(function () { if (document.visibilityState !== "hidden") refresh(); }, SAFETY_MS);

  // The first table comes with the page; taps kept from before (a reload, a closed browser) go first.
  table = JSON.parse($("pan-table").textContent);
  render();
  keep(outbox().map(function (q) { q.waited = true; return q; }));
  connect();
  flush(true);
})();
