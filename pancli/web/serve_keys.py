"""`pan serve`'s keys, kept with the database, so a restart (or `pan serve` tomorrow) keeps the same
addresses and QR codes, and the dealer's open page its check values.

Each is a secret file beside the database (pancli.storage.secret_file), never inside it, so no
archive, sync folder or replica of the database carries it: ``pan.db-players.key`` (the players'
token) and ``pan.db-dealer.key`` (the dealer's token and the secret of the dealer page's CSRF values).
The token and the secret are derived from the key by HMAC, each for its own purpose. A key is
replaced only on purpose (`pan serve --new-token`, `--new-dealer-key`): the old address stops
working at once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

from pancli.core.i18n import _
from pancli.storage import secret_file

PLAYERS, DEALER = "players", "dealer"
TOKEN_CHARS = 16  # as secrets.token_urlsafe(12): 96 bits


@dataclass(frozen=True)
class ServeKey:
    """One key: its token (the address's), and the secret of the CSRF values (the dealer's)."""

    key: bytes

    def derive(self, purpose: str) -> bytes:
        return hmac.new(self.key, f"pan serve: {purpose}".encode(), hashlib.sha256).digest()

    @property
    def token(self) -> str:
        return base64.urlsafe_b64encode(self.derive("token")).decode("ascii")[:TOKEN_CHARS]

    @property
    def csrf_secret(self) -> bytes:
        return self.derive("csrf")


def key_path(db_path: str | os.PathLike[str], who: str) -> Path:
    db = Path(db_path)
    return db.with_name(f"{db.name}-{who}.key")


def serve_key(db_path: str | os.PathLike[str], who: str, new: bool = False) -> ServeKey:
    """The kept key of ``who`` (PLAYERS or DEALER) for the database: made on the first start,
    replaced when ``new``. Raises SecretFileError for a key file not to trust; where the folder
    cannot keep one, a key for this run only, with a note on stderr."""
    path = key_path(db_path, who)
    try:
        return ServeKey(secret_file.replace(path) if new else secret_file.read_or_make(path))
    except secret_file.SecretFileError:
        raise
    except OSError as e:
        sys.stderr.write(_("Note: cannot keep the key in {path} ({why}): the address changes at the next start.")
                         .format(path=path, why=e.strerror or e) + "\n")
        return ServeKey(secrets.token_bytes(secret_file.KEY_BYTES))
