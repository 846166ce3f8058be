"""The JSON reader for what SQLite's JSON functions write in bulk (a long night's log read back
piece by piece as json_array rows): orjson, compiled, about twice as fast as the standard json
there (bench/bench_dbcheck.py).

What it reads is what json.loads reads, for such texts: their whole numbers are SQLite's, within
64 bits (orjson would read a longer one as a float, so a text written by anyone else, such as an
event's payload, is for json.loads); json.loads has the last word on any text orjson refuses
(a lone surrogate, NaN), and reads everything where orjson has no wheel."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_fast: Callable[[str], Any]
_refused: type[ValueError]
try:
    import orjson

    _fast, _refused = orjson.loads, orjson.JSONDecodeError
except ImportError:  # pragma: no cover - a platform without orjson's wheel
    _fast, _refused = json.loads, json.JSONDecodeError


def sqlite_json(text: str) -> Any:
    """json.loads(text), faster, for a text SQLite's JSON functions wrote from its columns."""
    try:
        return _fast(text)
    except _refused:  # the standard reader has the last word, and its message
        return json.loads(text)
