"""A meld (or an addition to one) judged in one sentence, as `pan check` says it: for the dealer's
card picker (`pan serve --dealer`), which shows it live before anything is recorded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pancli.core.i18n import _
from pancli.games.panguingue.conditions import NONE, describe, tag_of
from pancli.games.panguingue.rules import HouseRules
from pancli.games.panguingue.rulings import judge, judge_addition


def verdict(cards: Sequence[str], rules: HouseRules, onto: Sequence[str] | None = None) -> dict[str, Any]:
    """``{"valid", "text", "pays"}``: the cards as a new meld, or as an addition to ``onto``."""
    if onto:
        meld = tuple(onto)
        base = judge(meld, rules)
        if not base.valid:
            return {"valid": False, "text": _("not legal: the meld itself is not legal: {reason}").format(reason=base.reason),
                    "pays": 0}
        ruling = judge_addition(meld, tag_of(meld, rules), tuple(cards), rules)
        if ruling.legal:
            return {"valid": True, "text": _("legal addition: {reason}").format(reason=ruling.reason),  # as `pan check` says it
                    "pays": ruling.pays}
        return {"valid": False, "text": _("not legal: {reason}").format(reason=ruling.reason), "pays": 0}
    data = judge(tuple(cards), rules).to_json()
    if not data["valid"]:
        return {"valid": False, "text": _("not legal: {reason}").format(reason=data["reason"]), "pays": 0}
    tag = data["condition"]
    words = _("no condition") if not tag or tag == NONE else describe(tag, data["cards"])
    line = (_("legal set, {condition}; worth {n} from each payer") if data["kind"] == "set"
            else _("legal rope, {condition}; worth {n} from each payer"))
    return {"valid": True, "text": line.format(condition=words, n=data["worth"]), "pays": data["worth"]}
