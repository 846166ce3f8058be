"""A gettext catalog (.mo) read as a command needs it: each message looked up in the file's bytes
when it is first asked for, instead of every message of the catalog decoded into a dictionary
before the first one is shown (what ``gettext.GNUTranslations`` does: most of what a language
other than English cost `pan check`).

The file is read whole (one read) and its table of original strings unpacked; a message is found
by its bytes between the NULs that end the strings before and after it (the original strings of
a .mo are written one after another, each ended by a NUL, as Babel and msgfmt write them), and
its entry by the table; its translation is decoded then, once. A file laid out otherwise (or
not UTF-8) is read by GNUTranslations, as before.
"""

from __future__ import annotations

import gettext
import io
import struct
from bisect import bisect_left
from collections.abc import Callable

_LE, _BE = 0x950412DE, 0xDE120495


class LazyCatalog:
    """The four lookups of pancli's Catalog protocol over a .mo file's bytes."""

    def __init__(self, data: bytes) -> None:
        magic = struct.unpack("<I", data[:4])[0]
        order = "<" if magic == _LE else ">"
        _rev, n, originals, translations = struct.unpack(order + "4I", data[4:20])
        self._data = data
        self._n = n
        self._orig = struct.unpack(f"{order}{2 * n}I", data[originals:originals + 8 * n])  # length, offset …
        self._trans = struct.unpack(f"{order}{2 * n}I", data[translations:translations + 8 * n])
        self._starts = self._orig[1::2]
        self._low = self._starts[0] - 1 if n else 0
        end = self._starts[-1] + self._orig[-2] + 1 if n else 0
        self._high = end
        self._cache: dict[str, str | None] = {}
        self._plural: Callable[[int], int] | None = None
        if any(b - a != length + 1 for a, b, length in zip(self._starts, self._starts[1:], self._orig[::2])):
            raise ValueError("original strings not laid out one after another")
        header = self._find(b"")
        info = self._text(header) if header is not None else ""
        self._plural_forms = "plural=(n != 1)"
        for line in info.split("\n"):
            name, _sep, value = line.partition(":")
            if name.strip().lower() == "content-type" and "charset=" in value and \
                    value.split("charset=")[1].strip().lower() not in ("utf-8", "utf8"):
                raise ValueError("not UTF-8")
            if name.strip().lower() == "plural-forms":
                self._plural_forms = value.strip()

    def _find(self, key: bytes) -> int | None:
        """The index of the entry whose original string is ``key``, or None."""
        if key == b"":
            return 0 if self._n and self._orig[0] == 0 else None
        at = self._data.find(b"\0" + key + b"\0", self._low, self._high)
        while at != -1:
            i = bisect_left(self._starts, at + 1)
            if i < self._n and self._starts[i] == at + 1 and self._orig[2 * i] == len(key):
                return i
            at = self._data.find(b"\0" + key + b"\0", at + 1, self._high)
        return None

    def _text(self, i: int) -> str:
        length, offset = self._trans[2 * i], self._trans[2 * i + 1]
        return self._data[offset:offset + length].decode("utf-8")

    def _single(self, key: str) -> str | None:
        if key in self._cache:
            return self._cache[key]
        i = self._find(key.encode("utf-8"))
        found = self._text(i) if i is not None else None
        self._cache[key] = found or None
        return found or None

    def _forms(self, singular: str, plural: str, n: int) -> str | None:
        key = f"{singular}\0{plural}"
        if key not in self._cache:
            i = self._find(key.encode("utf-8"))
            self._cache[key] = self._text(i) if i is not None else None
        forms = self._cache[key]
        if forms is None:
            return None
        which = self.plural(n)
        options = forms.split("\0")
        return options[which] if which < len(options) and options[which] else None

    def plural(self, n: int) -> int:
        """Which plural form ``n`` takes, by the catalog's Plural-Forms (as GNUTranslations.plural)."""
        if self._plural is None:
            self._plural = gettext.c2py(self._plural_forms.split("plural=", 1)[1].rstrip(";"))
        return int(self._plural(n))

    def gettext(self, message: str, /) -> str:
        return self._single(message) or message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return self._forms(singular, plural, n) or (singular if n == 1 else plural)

    def pgettext(self, context: str, message: str, /) -> str:
        return self._single(f"{context}\x04{message}") or message

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str:
        return self._forms(f"{context}\x04{singular}", plural, n) or (singular if n == 1 else plural)


def read_catalog(data: bytes) -> LazyCatalog | gettext.GNUTranslations:
    """The catalog of a .mo file's bytes: looked up lazily, or by GNUTranslations when it is laid
    out otherwise."""
    try:
        return LazyCatalog(data)
    except (ValueError, struct.error, IndexError, UnicodeDecodeError):
        return gettext.GNUTranslations(io.BytesIO(data))
