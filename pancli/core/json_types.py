"""The one name for open JSON data: an event's payload as stored and archived, and the plain
data a view gives `--json` and the pages.

``JsonObject`` is what json.loads gives for an object (text keys, any JSON value). A value whose
shape is known has its own type (a dataclass, a NamedTuple, a TypedDict); this alias is only for
what truly is open JSON. Imported for annotations only (``if TYPE_CHECKING``): nothing loads it at
start-up."""

from __future__ import annotations

from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
