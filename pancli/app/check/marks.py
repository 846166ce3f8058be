"""What a check verified, remembered as a mark in the database and sealed with a key kept
outside it, so that the next check replays only what was recorded since."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from pancli.core.rows import CheckMark
from pancli.storage import secret_file

# A mark is in the database, so whoever can edit the file could recompute plain digests of his
# edit. Its ``digest`` is therefore keyed (HMAC-SHA256) with a key kept outside the database, in
# the user's data folder, over the session's game, seats and rules and every field of the mark:
# a mark it does not verify is ignored, and the session replayed in full.


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


KEY_FILE = "check-marks.key"


def seal(basis: str, session_id: int, last_seq: int, last_event: int, pieces: Sequence[Sequence[Any]], hands_below: int,
         hands_digest: str, version: str, sqlite: str) -> str | None:
    key = mark_key()
    if key is None:
        return None
    import hmac  # noqa: PLC0415 start-up: only db check seals

    text = "\n".join([basis, *(f"{a} {b} {d}" for a, b, d in pieces),
                      f"{session_id} {last_seq} {last_event} {hands_below} {hands_digest} {version} {sqlite}"])
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def sealed(mark: CheckMark, basis: str) -> bool:
    want = seal(basis, mark.session_id, mark.last_seq, mark.last_event, mark.pieces, mark.hands_below,
                 mark.hands_digest, mark.pancli, mark.sqlite)
    import hmac  # noqa: PLC0415 start-up: only db check seals

    return want is not None and hmac.compare_digest(want, mark.digest)


_KEY: list[bytes | None] = []


def mark_key() -> bytes | None:
    """This user's key for check marks (32 random bytes, made on the first check, readable by
    the user alone: pancli.storage.secret_file); None where none can be made (then no mark is
    kept). A key file not to trust (readable by others, a link, a FIFO, …) is refused, in one line
    that names it and the fix, never used."""
    if _KEY:
        return _KEY[0]
    from pancli.storage.paths import data_dir  # noqa: PLC0415

    try:
        key: bytes | None = secret_file.read_or_make(data_dir() / KEY_FILE)
    except secret_file.SecretFileError:
        raise
    except OSError:
        key = None
    _KEY.append(key)
    return key
