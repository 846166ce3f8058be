"""Keeps pancli's gettext catalogs: extract the messages, update and compile each language, check
them, and make the pseudo-language that finds a line nobody wrapped.

    python scripts/catalogs.py extract           # pancli/locale/pancli.pot from the code
    python scripts/catalogs.py update            # each language's .po follows the .pot
    python scripts/catalogs.py compile           # each .po -> its .mo (what pancli reads)
    python scripts/catalogs.py check             # all current, valid, complete, plural forms as
                                                 # CLDR's, card codes/commands/options kept (the tests run it)
    python scripts/catalogs.py init pancli/locale/pancli.pot de pancli/locale/de/LC_MESSAGES/pancli.po
    python scripts/catalogs.py pseudo /tmp/qps   # then: PANCLI_LOCALE_DIR=/tmp/qps pan --lang qps …
                                                 # (and --lang qpa: the wide one, full-width letters)
    python scripts/catalogs.py try some.pl.po /tmp/loc   # a .po to try: PANCLI_LOCALE_DIR=/tmp/loc

Messages come from the code (``_``, ``N_``, ``ngettext``, ``pgettext``, ``npgettext``), the
pages' templates (Jinja2's ``_``/``trans``), the pages' scripts (``t``, ``tn``) and every help
text of the command tree (``pancli.cli.words.help_catalog``).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pancli"
LOCALE = PACKAGE / "locale"
POT = LOCALE / "pancli.pot"
DOMAIN = "pancli"
PSEUDO = "qps"  # the pseudo-language's code (as in Windows' qps-ploc)
WIDE_PSEUDO = "qpa"  # the wide one (as Windows' qps-ploca, its pseudo-locale for East Asian text)

PY_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
               "npgettext": ((1, "c"), 2, 3)}
JINJA_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
COMMENT_TAGS = ("Translators:",)
HEADER = {"project": "pancli", "copyright_holder": "the pancli authors", "version": "0.3",
          "msgid_bugs_address": "the pancli authors", "last_translator": "the pancli authors",
          "language_team": "the pancli authors", "fuzzy": False}


def _method(path: Path) -> tuple[str, dict, dict] | None:
    if path.suffix == ".py":
        return "python", PY_KEYWORDS, {}
    if path.suffix == ".html" and "templates" in path.parts:
        return "jinja2.ext:babel_extract", JINJA_KEYWORDS, {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true"}
    if path.suffix == ".js" and "static" in path.parts:
        return "javascript", JS_KEYWORDS, {}
    return None


def _files(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        else:
            yield path


def help_messages() -> list[tuple[str, str]]:
    """Every help text of the command tree, with the file that wrote it (empty before the help
    catalog exists)."""
    sys.path.insert(0, str(ROOT))
    try:
        from pancli.cli.words import help_catalog  # type: ignore[attr-defined]  # noqa: PLC0415  (the tree, once the path is set)
    except ImportError:
        return []
    return list(help_catalog.help_messages())


def extract(paths: Iterable[Path] | None = None) -> Catalog:
    """The messages of ``paths`` (default: all of pancli), each once, with where it is written."""
    catalog = Catalog(domain=DOMAIN, **HEADER)
    chosen = [p.resolve() for p in paths] if paths else [PACKAGE]
    for path in _files(chosen):
        found = _method(path)
        if found is None:
            continue
        method, keywords, options = found
        where = path.relative_to(ROOT).as_posix()
        for lineno, message, comments, context in extract_from_file(
                method, str(path), keywords=keywords, comment_tags=COMMENT_TAGS, options=options,
                strip_comment_tags=True):
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    for text, where in help_messages():
        source = Path(where).resolve() if where else None
        if source is None or not paths or any(source == p or p in source.parents for p in chosen):
            catalog.add(text, None, [(Path(where).relative_to(ROOT).as_posix() if source and ROOT in source.parents
                                      else where, 0)], flags=("help",))
    return catalog


def _write_po(catalog: Catalog, path: Path, **kw) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False, include_previous=False, **kw)
    path.write_bytes(out.getvalue())


def _read_po(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def cmd_extract(args) -> int:
    target = Path(args.output) if args.output else POT
    catalog = extract([Path(p) for p in args.paths] if getattr(args, "paths", None) else None)
    _write_po(catalog, target)
    print(f"{target}: {len(catalog)} messages")
    return 0


def new_language(template: Catalog, lang: str) -> Catalog:
    catalog = Catalog(locale=lang, domain=DOMAIN, **HEADER)
    for m in template:
        if m.id:
            catalog.add(m.id, None, m.locations, flags=m.flags - {"fuzzy"}, auto_comments=m.auto_comments,
                        context=m.context)
    return catalog


def cmd_init(args) -> int:
    template = _read_po(Path(args.pot))
    catalog = new_language(template, args.lang)
    _write_po(catalog, Path(args.po))
    print(f"{args.po}: {len(catalog)} messages to translate into {args.lang} "
          f"({catalog.num_plurals} plural forms: {catalog.plural_expr})")
    return 0


def updated(catalog: Catalog, template: Catalog) -> Catalog:
    """``catalog`` following ``template``: every message of it, each translation kept by msgid
    (and context); no fuzzy guesses (a changed message is untranslated until someone translates it)."""
    out = Catalog(locale=catalog.locale, domain=DOMAIN, **HEADER)
    for m in template:
        if not m.id:
            continue
        old = catalog.get(m.id, m.context)
        string = old.string if old is not None and "fuzzy" not in old.flags else None
        if isinstance(m.id, tuple) and not isinstance(string, tuple):
            string = None
        if not isinstance(m.id, tuple) and isinstance(string, tuple):
            string = None
        out.add(m.id, string, m.locations, flags=m.flags - {"fuzzy"}, auto_comments=m.auto_comments,
                user_comments=old.user_comments if old is not None else (), context=m.context)
    return out


def cmd_update(args) -> int:
    template = _read_po(POT)
    for lang in languages():
        path = po_path(lang)
        catalog = updated(_read_po(path, lang), template)
        _write_po(catalog, path)
        print(f"{path}: {len(catalog)} messages, {len(untranslated(catalog))} untranslated")
    return 0


def cmd_merge(args) -> int:
    """Take the translations of other .po files (say, from several translators) into the language
    catalogs: a message already translated keeps its translation unless --replace."""
    for fragment in args.files:
        piece = _read_po(Path(fragment))
        lang = str(piece.locale)
        path = po_path(lang)
        catalog = _read_po(path, lang) if path.exists() else new_language(_read_po(POT), lang)
        taken = 0
        for m in piece:
            if not m.id or not m.string or "fuzzy" in m.flags:
                continue
            mine = catalog.get(m.id, m.context)
            if mine is None or (mine.string and not args.replace and _complete(mine)):
                continue
            if isinstance(m.id, tuple) != isinstance(mine.id, tuple):
                continue
            mine.string = m.string
            taken += 1
        _write_po(catalog, path)
        print(f"{fragment}: {taken} translations into {path.relative_to(ROOT)}")
    return 0


def _complete(m: Message) -> bool:
    if isinstance(m.string, tuple):
        return all(s for s in m.string)
    return bool(m.string)


def untranslated(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id and not _complete(m)]


def cmd_compile(args) -> int:
    for lang in languages():
        catalog = _read_po(po_path(lang), lang)
        target = po_path(lang).with_suffix(".mo")
        target.write_bytes(_mo_bytes(catalog))
        print(f"{target.relative_to(ROOT)}: {len(catalog)} messages")
    return 0


BRACE = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")
PERCENT = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)[sdr]")


def placeholders(text: str) -> set[str]:
    return set(BRACE.findall(text)) | {f"%({n})" for n in PERCENT.findall(text)}


# Messages that name a person where Polish or Russian would decline the name ("płaci Kasia",
# "czy chodzi o Łukasz?", "садится после Olga"): their translations keep every name where it takes
# no case ending, at the start of the sentence or after a colon, a semicolon, a dash, an opening
# bracket or a quote (or after "może"/"может быть,", which ask with the name as it is). A message
# joins this list when a translation of it once declined a name, so that it cannot come back.
NOMINATIVE = (
    "{payer} pays {payee} {chips}: {reason}",
    "{payers} pay {payee} {chips} each: {reason}",
    "{payer} pays (tops) {chips}: {reason}",
    "{payers} pay (tops) {chips} each: {reason}",
    "{payer} pays (house) {chips}: {reason}",
    "{payers} pay (house) {chips} each: {reason}",
    "{payer} pays {payee} {amount} — {why}",
    "'{payer} pays {payee} {chips}: {what}'",
    "did you mean {player}? ({players})",
    "{player} went out; cards left recorded for: {players}",
    "{player} went out; cards left recorded for: nobody yet",
    "{player} went out and holds no cards",
    "{player} has already gone out of deal {deal}",
    "{player} takes a seat after {after}",
    "{player} takes a seat after {after}; seats: {seats}",
    "give one card for {player}, not {n}",
    "only {players} give permission to {asker}",
    "Deal decided: {player} is left holding cards; record it with `pan polish lost {player}` (or `pan polish nolose`).",
    "{player} dropped this hand and cannot drop",
    "{player} dropped this hand and cannot stay",
    "{player} dropped this hand and cannot meld",
    "{player} dropped this hand and cannot add to a meld",
    "{player} dropped this hand and cannot split a meld",
    "{player} dropped this hand and cannot borrow",
    "{player} dropped this hand and cannot spread",
    "{player} dropped this hand and cannot go out",
    "{player}'s time has run out.",
    "{player}'s time runs out",
    "{player}' time runs out",
    "{player}'s time has run out; this clock is finished",
    "The table has moved on to {name}.",
    "move {name} up",
    "move {name} down",
    "remove {name}",
    "'{name}' looks the same as '{other}', seated already",
    "Still to record: the cards left of {players}.",
    "Still to record ({button}): the cards left of {players}.",
    "not chosen yet: {what}",
    "choose it, then tap again: {action}",
)
NAME = re.compile(r"\{(player|players|payer|payee|payers|receiver|name|winner|dealer|eldest|owner|asker|after|other|what|action)\}")
NAME_SLOT = re.compile(r"(?:^|[:;(—'„«]\s*|\bmoże\s|может быть,\s)$")


def declined(m: Message) -> list[str]:
    """The names a translation of a NOMINATIVE message puts where the language would decline them
    (a name inside a command's backticks is typed as it is)."""
    ids = m.id if isinstance(m.id, tuple) else (m.id,)
    if ids[0] not in NOMINATIVE:
        return []
    found = []
    for s in m.string if isinstance(m.string, tuple) else (m.string,):
        for name in NAME.finditer(s or ""):
            before = s[:name.start()]
            if before.count("`") % 2 == 0 and not NAME_SLOT.search(before):
                found.append(f"{name.group(0)} where it would be declined ({before[-20:]!r}): {ids[0][:60]!r}")
    return found


# What a translation keeps exactly as the English writes it, because it is typed: card codes (5S,
# 10D, KH; no letter or digit either side, so that a code inside Japanese text is found too), the
# commands quoted in backticks (`pan meld`, `pan polish lost`) and options (--lang, --db).
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")
QUOTED = re.compile(r"`([^`]+)`")
COMMAND = re.compile(r"^pan(?: [a-z][a-z-]*){0,2}")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _commands(text: str) -> set[str]:
    return {m.group(0) for quoted in QUOTED.findall(text) if (m := COMMAND.match(quoted))}


def typed_words(msgid: str, msgstr: str) -> list[str]:
    """What a translation changed of the card codes, quoted commands and options of its English."""
    found = []
    if sorted(CARD.findall(msgid)) != sorted(CARD.findall(msgstr)):
        found.append(f"card codes {sorted(CARD.findall(msgid))} written {sorted(CARD.findall(msgstr))}")
    if missing := sorted(_commands(msgid) - _commands(msgstr)):
        found.append(f"commands {missing} not kept in backticks")
    if missing := sorted(set(OPTION.findall(msgid)) - set(OPTION.findall(msgstr))):
        found.append(f"options {missing} not kept")
    return found


def _header_text(path: Path) -> str:
    """The .po file's header as written: the first msgstr's strings joined."""
    head = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
    body = head.split('msgstr ""', 1)[1] if 'msgstr ""' in head else ""
    return "".join(re.findall(r'^"(.*)"$', body, re.MULTILINE)).replace("\\n", "\n")


def plural_header(path: Path, lang: str) -> list[str]:
    """The catalog's Plural-Forms header against the Unicode CLDR's for its language, as Babel gives
    it (``Catalog(locale=code).plural_forms``: ja one form, bg two, es three, pl and ru three)."""
    wanted = Catalog(locale=lang).plural_forms
    found = re.search(r"^Plural-Forms:(.*)$", _header_text(path), re.MULTILINE)
    written = found.group(1).strip() if found else None
    if written is None:
        return [f"no Plural-Forms header: want {wanted!r}"]
    squeeze = lambda text: re.sub(r"\s+", "", text).rstrip(";")  # noqa: E731
    if squeeze(written) != squeeze(wanted):
        return [f"Plural-Forms is {written!r}; CLDR's (Babel) is {wanted!r}"]
    return []


def problems(catalog: Catalog) -> list[str]:
    """What is wrong with a language's catalog: untranslated or fuzzy, placeholders that differ,
    the wrong number of plural forms, a name where the language would decline it, a card code,
    a quoted command or an option not kept as it is."""
    found = []
    for m in catalog:
        if not m.id:
            continue
        name = (m.id[0] if isinstance(m.id, tuple) else m.id)[:60]
        if "fuzzy" in m.flags:
            found.append(f"fuzzy: {name!r}")
        if not _complete(m):
            found.append(f"untranslated: {name!r}")
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(m.id, tuple) and len(strings) != catalog.num_plurals:
            found.append(f"{len(strings)} plural forms, not {catalog.num_plurals}: {name!r}")
        wanted = placeholders(ids[-1]) | placeholders(ids[0])
        for s in strings:
            # a plural form may leave out the count ("one chip" for {n}), never add a name
            extra = placeholders(s) - wanted
            missing = placeholders(ids[0]) - placeholders(s) - ({"n", "count"} if len(ids) > 1 else set())
            if extra or missing:
                found.append(f"placeholders {sorted(extra | missing)} differ: {name!r}")
            found += [f"{problem}: {name!r}" for problem in typed_words(ids[0], s)]
        found += declined(m)
    return found


def cmd_check(args) -> int:
    failures = []
    current = extract()
    if not POT.exists():
        failures.append(f"{POT.relative_to(ROOT)} is missing: run extract")
        written = Catalog(domain=DOMAIN)
    else:
        written = _read_po(POT)
    now = {(m.id, m.context) for m in current if m.id}
    before = {(m.id, m.context) for m in written if m.id}
    for key in sorted(now - before, key=str)[:20]:
        failures.append(f"not in the .pot (run extract, update): {str(key[0])[:60]!r}")
    for key in sorted(before - now, key=str)[:20]:
        failures.append(f"in the .pot but no longer in the code (run extract, update): {str(key[0])[:60]!r}")
    for lang in languages():
        catalog = _read_po(po_path(lang), lang)
        ids = {(m.id, m.context) for m in catalog if m.id}
        if ids != before:
            failures.append(f"{lang}: {len(before - ids)} messages of the .pot missing, "
                            f"{len(ids - before)} not in it (run update)")
        failures += [f"{lang}: {p}" for p in plural_header(po_path(lang), lang)]
        failures += [f"{lang}: {p}" for p in problems(catalog)]
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != _mo_bytes(catalog):
            failures.append(f"{lang}: {mo.relative_to(ROOT)} is not compiled from its .po (run compile)")
    for line in failures[:200]:
        print(line)
    if failures:
        print(f"{len(failures)} problems")
        return 1
    print(f"{len(current)} messages; {', '.join(languages())}: complete, valid, compiled")
    return 0


def pseudo_text(text: str) -> str:
    """⟦text⟧ inside the text's own leading and trailing white space."""
    core = text.strip()
    if not core:
        return text
    start = text.index(core[0])
    return f"{text[:start]}⟦{core}⟧{text[start + len(core):]}"


# What a wide message keeps as it is: placeholders, quoted commands, markup and HTML tags, card
# codes, options and printf-style conversions (what the code or a person types, not words).
_KEPT = re.compile(r"\{[^{}]*\}|%\([A-Za-z_]\w*\)[sdr]|%[A-Za-z%]|`[^`]*`|\[/?[a-z ]+\]|<[^<>]*>|&\w+;"
                   r"|(?<![\w-])--?[A-Za-z][\w-]*|\b(?:10|[2-9TJQKA])[SHDC]\b|\S*[/\\.]\S*[A-Za-z]\S*")
_FULL_WIDTH = {c: c + 0xFEE0 for c in range(ord("!"), ord("~") + 1) if chr(c).isalpha()}
_PADDING = "パンギンゲのチップ"  # kana, no space: as long as a Japanese sentence runs without one


def wide_text(text: str) -> str:
    """⟦text⟧ with its letters full-width (two cells each) and padded with kana, a third again as
    long, inside the text's own leading and trailing white space: what a Japanese catalog does to
    a line's width. Placeholders, commands, markup, card codes and options are kept as they are."""
    core = text.strip()
    if not core:
        return text
    start = text.index(core[0])
    pieces, at = [], 0
    for m in _KEPT.finditer(core):
        pieces += [core[at:m.start()].translate(_FULL_WIDTH), m.group(0)]
        at = m.end()
    pieces.append(core[at:].translate(_FULL_WIDTH))
    pad = (_PADDING * (len(core) // len(_PADDING) + 1))[:max(1, len(core) // 3)]
    return f"{text[:start]}⟦{''.join(pieces)}{pad}⟧{text[start + len(core):]}"


def pseudo_catalog(template: Catalog, say=pseudo_text) -> Catalog:
    catalog = Catalog(locale="en", domain=DOMAIN, **HEADER)
    for m in template:
        if not m.id:
            continue
        string = tuple(say(s) for s in m.id) if isinstance(m.id, tuple) else say(m.id)
        catalog.add(m.id, string, context=m.context)
    return catalog


def cmd_pseudo(args) -> int:
    """The pseudo-languages into DIR: qps (every message in ⟦…⟧) and the wide qpa (every message
    written in full-width letters and padded with kana: two cells a character, no space to
    break the padding at), each where PANCLI_LOCALE_DIR=DIR finds it."""
    messages = extract()
    for code, say in ((PSEUDO, pseudo_text), (WIDE_PSEUDO, wide_text)):
        target = Path(args.dir) / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        catalog = pseudo_catalog(messages, say)
        target.write_bytes(_mo_bytes(catalog))
        print(f"{target}: {len(catalog)} messages; try: PANCLI_LOCALE_DIR={args.dir} pan --lang {code} --help")
    return 0


def cmd_try(args) -> int:
    catalog = _read_po(Path(args.po))
    lang = str(catalog.locale) if catalog.locale else args.lang
    target = Path(args.dir) / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(_mo_bytes(catalog))
    print(f"{target}: {len(catalog)} messages; try: PANCLI_LOCALE_DIR={args.dir} pan --lang {lang} …")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract", help="write the .pot from the code")
    p.add_argument("-o", "--output")
    p.set_defaults(run=cmd_extract)
    p = sub.add_parser("extract-part", help="the messages of some files only")
    p.add_argument("paths", nargs="+")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(run=cmd_extract)
    p = sub.add_parser("init", help="a new language's .po from a .pot")
    p.add_argument("pot")
    p.add_argument("lang")
    p.add_argument("po")
    p.set_defaults(run=cmd_init)
    sub.add_parser("update", help="each language's .po follows the .pot").set_defaults(run=cmd_update)
    p = sub.add_parser("merge", help="take translations from other .po files")
    p.add_argument("files", nargs="+")
    p.add_argument("--replace", action="store_true")
    p.set_defaults(run=cmd_merge)
    sub.add_parser("compile", help="each .po -> .mo").set_defaults(run=cmd_compile)
    sub.add_parser("check", help="current, valid, complete, compiled").set_defaults(run=cmd_check)
    p = sub.add_parser("pseudo", help="the pseudo-languages qps and qpa (wide) into DIR")
    p.add_argument("dir")
    p.set_defaults(run=cmd_pseudo)
    p = sub.add_parser("try", help="compile one .po into DIR to try it")
    p.add_argument("po")
    p.add_argument("dir")
    p.add_argument("--lang", default="xx")
    p.set_defaults(run=cmd_try)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
