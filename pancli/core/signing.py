"""Who wrote a file: each device's Ed25519 key pair, signatures and what people compare aloud.

A device's private key is a 32-byte seed kept in its database (settings ``device_key``, made by
migration m007); its public key goes into the files it writes to a shared folder. Everything
here is a pure computation over bytes. `cryptography` is imported on first use only, so no
command but `pan sync` (and the creation of a new database) pays for loading it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ARCHIVE = b"pancli-archive-signature\n"    # what each kind of signed text is prefixed with, so a
MANIFEST = b"pancli-device-signature\n"    # signature made for one kind never passes for another
CLUB = b"pancli-club-signature\n"          # an entry of a club's roster (pancli/core/club.py)
KEY = re.compile(r"[0-9a-f]{64}")           # a public key as files and settings hold it: 64 hex digits
SIGNATURE = re.compile(r"[0-9a-f]{128}")


def _private(seed: bytes) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415 start-up: only sync signs
        Ed25519PrivateKey,
    )

    return Ed25519PrivateKey.from_private_bytes(seed)


def public_key(seed: bytes) -> str:
    """The public key of a device's seed, as hex (its raw bytes: no need to load cryptography's
    serialization, a third of its start-up)."""
    return _private(seed).public_key().public_bytes_raw().hex()


def sign(seed: bytes, kind: bytes, message: bytes) -> str:
    """The signature (hex) of ``message`` of one kind (ARCHIVE, MANIFEST, CLUB) under the seed's key."""
    return _private(seed).sign(kind + message).hex()


def verify(key: str, signature: str, kind: bytes, message: bytes) -> bool:
    """Whether ``signature`` is the key's over ``message`` of that kind."""
    from cryptography.exceptions import InvalidSignature  # noqa: PLC0415 start-up: only sync verifies
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415 start-up: only sync verifies
        Ed25519PublicKey,
    )

    if not KEY.fullmatch(key) or not SIGNATURE.fullmatch(signature):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(bytes.fromhex(signature), kind + message)
    except (InvalidSignature, ValueError):
        return False
    return True


def device_id_of(key: str) -> str:
    """The device id a public key gives a new device (32 hex digits, like the random ids of
    pancli 0.2): nobody can claim such an id without holding its private key."""
    return hashlib.sha256(b"pancli-device-id\n" + bytes.fromhex(key)).hexdigest()[:32]


def key_fingerprint(key: str) -> str:
    """A public key shortened to what two people can read to each other across a table: four
    groups of four letters and digits (80 bits of its sha256, base32)."""
    text = base64.b32encode(hashlib.sha256(bytes.fromhex(key)).digest()[:10]).decode("ascii")
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))
