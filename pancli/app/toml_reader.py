"""The TOML reader archives are read with: rtoml, compiled (Rust), 4 to 10 times as fast as the standard library's
tomllib on pancli's archives (bench/bench_import.py measures both), with a nesting limit of its
own; tomllib where rtoml has no wheel. Both give the same values for every archive pancli writes
(tests/test_archive_stream.py reads each fixture with both)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    import rtoml

    loads: Callable[[str], Any] = rtoml.loads
    ERRORS: tuple[type[Exception], ...] = (rtoml.TomlParsingError, RecursionError)
    NAME = "rtoml"
except ImportError:  # pragma: no cover - a platform without rtoml's wheel
    import tomllib

    loads = tomllib.loads
    ERRORS = (tomllib.TOMLDecodeError, RecursionError)
    NAME = "tomllib"
