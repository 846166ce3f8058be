"""This device's name: the one given with `pan sync --device NAME`, else the host's."""

from __future__ import annotations

import re
import socket
from typing import TYPE_CHECKING

from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.names import clean_name

if TYPE_CHECKING:
    from pancli.storage.store import Store


def default_label() -> str:
    host = socket.gethostname().split(".")[0]
    return re.sub(r"[^\w-]+", "-", host).strip("-")[:32] or "device"


def device_label(store: Store) -> str:
    return store.setting("device_label") or default_label()


def clean_label(label: str) -> str:
    text = clean_name(label, "device")
    if len(text) > 32 or not re.fullmatch(r"\w[\w .-]*", text):
        raise InputError(_("'{name}' is not a device name").format(name=text),
                         _("use up to 32 letters, digits, spaces, dots and dashes"))
    return text
