"""The JSON reader for what SQLite writes in bulk (a long night's log, piece by piece, as
json_array rows): orjson, compiled, about twice as fast as the standard json there
(bench/bench_dbcheck.py); the standard json where orjson has no wheel, and for any text orjson
refuses (a lone surrogate, NaN), which then reads as json.loads reads it.

Only for numbers SQLite wrote (whole numbers within 64 bits): orjson reads a longer whole number
as a float, where json.loads keeps it whole. An event's payload, written by anyone, is read by
json.loads."""

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


def loads(text: str) -> Any:
    try:
        return _fast(text)
    except _refused:  # the standard reader has the last word, and its message
        return json.loads(text)
