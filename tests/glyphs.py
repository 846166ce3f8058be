"""What a page draws, read through the DevTools protocol (tests/cdp.py): a character no real font
has (`missing_glyphs`), and a Japanese line broken inside a word (`broken_words`).

A missing glyph: for each element with text of its own, Chromium says which platform fonts drew it
(`CSS.getPlatformFontsForNode`); each of its characters must be in one of those fonts' character
sets as fontconfig lists them (`fc-list`). A character that no installed font has is drawn as the
first font's empty box (.notdef), and that font's set does not hold it: found.

A Japanese line broken inside a word: each line break inside a text node of Japanese (where a
range of one character starts a new line box) must fall where the browser's own word segmenter
(`Intl.Segmenter('ja', {granularity: 'word'})`, ICU's dictionary) puts a word boundary."""

from __future__ import annotations

import subprocess
from functools import cache


@cache
def charset(family: str) -> frozenset[int]:
    """Every character a font family has, by fontconfig (all its styles)."""
    out = subprocess.run(["fc-list", "--format=%{charset}\\n", f":family={family}"], capture_output=True,
                         text=True, check=True).stdout
    found: set[int] = set()
    for part in out.split():
        first, _sep, last = part.partition("-")
        found.update(range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(found)


def _with_text(node: dict):
    """(element node, its own text) for every element with text of its own, in document order."""
    own = "".join(c.get("nodeValue", "") for c in node.get("children", []) if c.get("nodeType") == 3)
    if node.get("nodeType") == 1 and own.strip() and node.get("nodeName") not in ("SCRIPT", "STYLE", "TITLE", "NOSCRIPT"):
        yield node, own
    for child in node.get("children", []):
        yield from _with_text(child)
    if node.get("contentDocument"):
        yield from _with_text(node["contentDocument"])


def missing_glyphs(b, tries: int = 5) -> list[tuple[str, str, list[str]]]:
    """(a character, the text it is in, the fonts that drew that text) for every character on the
    page that none of those fonts has. A live page that replaces its content while it is read is
    read again from the start."""
    b.call("DOM.enable")
    b.call("CSS.enable")
    for _try in range(tries):
        try:
            return _missing(b)
        except RuntimeError as e:
            if "Could not find node" not in str(e):
                raise
    return _missing(b)


def _missing(b) -> list[tuple[str, str, list[str]]]:
    root = b.call("DOM.getDocument", depth=-1, pierce=True)["root"]
    found = []
    for node, text in _with_text(root):
        if text.isascii():  # printable ASCII: in every font a browser falls back to
            continue
        fonts = [f["familyName"] for f in b.call("CSS.getPlatformFontsForNode", nodeId=node["nodeId"])["fonts"]]
        if not fonts:  # not drawn (display: none)
            continue
        for ch in sorted({c for c in text if not c.isspace()}):
            if not any(ord(ch) in charset(f) for f in fonts):
                found.append((ch, text.strip()[:60], fonts))
    return found


LINES = r"""(() => {
  const words = new Intl.Segmenter('ja', {granularity: 'word'});
  const japanese = /[\u3040-\u30ff\u3400-\u9fff]/;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let lines = 0;
  const at = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    if (!japanese.test(text) || !node.parentElement || node.parentElement.offsetParent === null) continue;
    const bounds = new Set([...words.segment(text)].map(s => s.index));
    const range = document.createRange();
    let top = null;
    for (let i = 0; i < text.length; i++) {
      if (/\s/.test(text[i])) continue;
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + rect.height / 2) {
        lines++;
        at.push(text.slice(Math.max(0, i - 4), i) + '|' + text.slice(i, i + 4));
        if (!bounds.has(i)) out.push(text.slice(Math.max(0, i - 8), i) + '|' + text.slice(i, i + 8));
      }
      top = rect.top;
    }
  }
  return {breaks: lines, inside: out, at: at};
})()"""


def broken_words(b) -> dict:
    """{"breaks": how many line breaks inside Japanese text nodes, "inside": each one inside a word,
    as the text either side of it}."""
    return b.evaluate(LINES)
