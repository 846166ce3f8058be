"""From SQL rows to the values the rest of pancli reads."""

from __future__ import annotations

import json


def session_row(row) -> dict:
    d = dict(row)
    d["players"] = json.loads(d["players"])
    d["rules"] = json.loads(d["rules"])
    return d
