"""A catalog read lazily (each message looked up in the .mo's bytes when first asked for) says
exactly what gettext's GNUTranslations says, for every message and plural form of every catalog
in pancli/locale and of the pseudo-languages; a file it cannot read so is read by GNUTranslations."""

from __future__ import annotations

import gettext
import io
import struct
from pathlib import Path

import pytest

from pancli.storage.mofile import LazyCatalog, read_catalog

from helpers import catalog_tool

LOCALE = Path(__file__).resolve().parent.parent / "pancli" / "locale"


def mo_files(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("pseudo")
    catalog_tool().main(["pseudo", str(folder)])
    return sorted(LOCALE.glob("*/LC_MESSAGES/pancli.mo")) + sorted(folder.glob("*/LC_MESSAGES/pancli.mo"))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return mo_files(tmp_path_factory)


def test_the_lazy_catalog_says_what_gettext_says(files):
    tool = catalog_tool()
    template = tool._read_po(tool.POT)
    assert len(files) >= 4  # pl, ru, qps, qpa (and every language the translators add)
    for path in files:
        data = path.read_bytes()
        mine, theirs = LazyCatalog(data), gettext.GNUTranslations(io.BytesIO(data))
        differ = []
        for m in template:
            if not m.id:
                continue
            if isinstance(m.id, tuple):
                for n in (0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1000):
                    args = (m.id[0], m.id[1], n)
                    got = mine.npgettext(m.context, *args) if m.context else mine.ngettext(*args)
                    want = theirs.npgettext(m.context, *args) if m.context else theirs.ngettext(*args)
                    if got != want:
                        differ.append((m.id, n, got, want))
            else:
                got = mine.pgettext(m.context, m.id) if m.context else mine.gettext(m.id)
                want = theirs.pgettext(m.context, m.id) if m.context else theirs.gettext(m.id)
                if got != want:
                    differ.append((m.id, got, want))
        assert not differ, (path, differ[:5])
        assert [mine.plural(n) for n in range(30)] == [theirs.plural(n) for n in range(30)]
        assert mine.gettext("a message no catalog has") == "a message no catalog has"
        assert mine.ngettext("{n} thing nobody wrote", "{n} things nobody wrote", 5) == "{n} things nobody wrote"


def test_a_file_laid_out_otherwise_is_read_by_gettext(files):
    data = bytearray(files[0].read_bytes())
    n, originals = struct.unpack("<I", data[8:12])[0], struct.unpack("<I", data[12:16])[0]
    # swap the offsets of the last two original strings: no longer one after another
    a, b = originals + 8 * (n - 2), originals + 8 * (n - 1)
    data[a + 4:a + 8], data[b + 4:b + 8] = data[b + 4:b + 8], data[a + 4:a + 8]
    data[a:a + 4], data[b:b + 4] = data[b:b + 4], data[a:a + 4]
    assert isinstance(read_catalog(bytes(data)), gettext.GNUTranslations)
    assert isinstance(read_catalog(files[0].read_bytes()), LazyCatalog)
