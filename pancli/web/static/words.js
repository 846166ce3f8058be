// The scripts' words: the page embeds their translations (pancli.web.script_words) in
// <script type="application/json" id="pan-words">; t("…", {name: …}) and tn("…", "…", n, {…})
// find a message there, or show it as written (English), then fill in its {placeholders}.
(function () {
  "use strict";
  var data = { words: {}, statuses: {}, counted: {}, plural: [] };
  var box = document.getElementById("pan-words");
  if (box) { try { data = JSON.parse(box.textContent); } catch (e) { /* English */ } }
  function fill(text, values) {
    return values ? text.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    }) : text;
  }
  function form(n) {
    n = Math.abs(Math.floor(Number(n) || 0));
    var table = data.plural || [];
    if (!table.length) return n === 1 ? 0 : 1;
    return n < table.length ? table[n] : table[100 + n % 100];
  }
  window.panT = function (message, values) {
    return fill((data.words && data.words[message]) || message, values);
  };
  window.panTn = function (singular, plural, n, values) {
    var forms = data.counted && data.counted[singular];
    var text = forms ? forms[Math.min(form(n), forms.length - 1)] : (n === 1 ? singular : plural);
    return fill(text, values);
  };
  window.panStatus = function (code) { return (data.statuses && data.statuses[code]) || code; };
})();
