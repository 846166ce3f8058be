"""The JSON reader for what pancli reads back in bulk (a long night's log, piece by piece):
orjson, compiled, about twice as fast as the standard json there (bench/bench_dbcheck.py);
the standard json where orjson has no wheel, and for any text orjson refuses (NaN, a number
past 64 bits, a lone surrogate), so that what is read is what json.loads reads."""

from __future__ import annotations

import json
from typing import Any

try:
    from orjson import JSONDecodeError as _Refused
    from orjson import loads as _fast
except ImportError:  # pragma: no cover - a platform without orjson's wheel
    _fast, _Refused = json.loads, json.JSONDecodeError


def loads(text: str) -> Any:
    try:
        return _fast(text)
    except _Refused:  # the standard reader has the last word, and its message
        return json.loads(text)
