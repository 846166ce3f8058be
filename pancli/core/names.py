"""Names people type (players, sessions) and making any stored text safe to show.

A name is normalised (Unicode NFC, spaces trimmed) and refused, with a one-line reason, when it
is empty, too long, or holds a character that would not show as itself on a terminal: a control
character (C0, C1, DEL, newline, tab), a format character (zero-width spaces and joiners, the
bidirectional overrides and isolates, the byte-order mark), a line or paragraph separator, a
private-use, surrogate or unassigned code point. A new player whose name differs from a seated
one only by case or by such characters is refused too: nobody could tell them apart.

Text read back from a database or an archive may hold anything (older files took any name);
``inert`` shows every such character escaped, so it can never move the cursor, change colours
or reorder a line.

Pure functions only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _, ngettext

MAX_PLAYER_NAME = 40     # characters, after normalising
MAX_SESSION_NAME = 80

# Unicode categories that never show as themselves: control, format, surrogate, private use,
# unassigned, line and paragraph separators.
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}

# What is wrong with a name, one whole message for a player's and one for a session's.
_REFUSALS = {
    "player": {
        "type": N_("a player's name must be text, not {type}"),
        "empty": N_("a player's name cannot be empty"),
        "hidden": N_("the player name '{name}' holds an invisible or control character ({char})"),
        "most": N_("a player's name may have at most {most}"),
    },
    "session": {
        "type": N_("a session's name must be text, not {type}"),
        "empty": N_("a session's name cannot be empty"),
        "hidden": N_("the session name '{name}' holds an invisible or control character ({char})"),
        "most": N_("a session's name may have at most {most}"),
    },
    "device": {
        "type": N_("a device's name must be text, not {type}"),
        "empty": N_("a device's name cannot be empty"),
        "hidden": N_("the device name '{name}' holds an invisible or control character ({char})"),
        "most": N_("a device's name may have at most {most}"),
    },
}


def hidden_char(ch: str) -> bool:
    """A character that would not be seen as itself (or at all) on a terminal."""
    return unicodedata.category(ch) in _HIDDEN or (unicodedata.category(ch) == "Zs" and ch != " ")


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def clean_name(text: object, what: str = "player") -> str:
    """The name normalised (NFC, trimmed), or InputError saying in one line why it cannot be one."""
    limit = MAX_SESSION_NAME if what == "session" else MAX_PLAYER_NAME
    said = _REFUSALS.get(what, _REFUSALS["player"])
    if not isinstance(text, str):
        raise InputError(_(said["type"]).format(type=type(text).__name__))
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise InputError(_(said["empty"]), _("type a name"))
    bad = next((ch for ch in name if hidden_char(ch)), None)
    if bad is not None:
        # Translators: {char} names the character as Unicode does, e.g. "U+200B ZERO WIDTH SPACE"
        raise InputError(_(said["hidden"]).format(name=inert(name), char=_describe(bad)),
                         _("use letters, digits, spaces and punctuation"))
    if len(name) > limit:
        raise InputError(_too_long(what, len(name)).format(name=inert(name[:limit]), length=len(name)),
                         _(said["most"]).format(most=limit))
    if what == "player":
        if name.startswith("(") or any(ch in name for ch in ",|"):
            raise InputError(_("'{name}' cannot be a player's name").format(name=name),
                             _("it may not start with ( or hold , or |"))
    return name


def _too_long(what: str, length: int) -> str:
    if what == "session":
        return ngettext("the session name '{name}…' is {length} character long",
                        "the session name '{name}…' is {length} characters long", length)
    if what == "device":
        return ngettext("the device name '{name}…' is {length} character long",
                        "the device name '{name}…' is {length} characters long", length)
    return ngettext("the player name '{name}…' is {length} character long",
                    "the player name '{name}…' is {length} characters long", length)


def name_key(name: str) -> str:
    """What two names are compared by: case, width and invisible characters ignored."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if not hidden_char(ch) and not ch.isspace())


# Letters with a stroke or a ligature have no decomposition to strip: what a keyboard without them types.
_PLAIN_LETTERS = str.maketrans({"ł": "l", "đ": "d", "ø": "o", "æ": "ae", "œ": "oe", "ı": "i", "ħ": "h", "ŧ": "t"})


def typed_key(name: str) -> str:
    """What a typed name is compared by when nothing matches as typed: ``name_key`` without
    accents, so ``lukasz`` finds Łukasz and ``zoe`` Zoë on a keyboard without them."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_PLAIN_LETTERS)


def check_new_player(name: object, seated: Iterable[str]) -> str:
    """A new player's cleaned name; refused if a seated player's name differs from it only by case
    or invisible characters."""
    name = clean_name(name, "player")
    key = name_key(name)
    for other in seated:
        if name_key(other) == key:
            same = (_("'{name}' is seated already").format(name=name) if other == name else
                    _("'{name}' looks the same as '{other}', seated already").format(name=name, other=inert(other)))
            raise InputError(same, _("give every player a name the others can tell apart"))
    return name


def clean_players(names: Iterable[object]) -> list[str]:
    """A list of new players, each cleaned, none looking like another (one key each: a long list
    costs what its length does)."""
    out: list[str] = []
    seen: dict[str, str] = {}
    for n in names:
        name = clean_name(n, "player")
        other = seen.setdefault(name_key(name), name)
        if other is not name:
            check_new_player(name, [other])  # raises with the usual words
        out.append(name)
    return out


def inert(text: object) -> str:
    """Text safe to show on a terminal: every character that would not show as itself is written as
    an escape (\\x1b, \\u202e), so stored text cannot forge output, colours or direction."""
    text = str(text)
    if text.isprintable():  # printable is exactly "no hidden_char" (categories C* and Z*, but the space)
        return text
    out = []
    for ch in text:
        if hidden_char(ch) or not ch.isprintable():
            out.append(ch.encode("unicode_escape").decode("ascii") if ord(ch) > 0x7f or ch in "\t\n\r"
                       else f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)
