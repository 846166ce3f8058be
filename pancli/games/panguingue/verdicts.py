"""A meld (or an addition to one) judged in one sentence, as `pan check` says it: for the dealer's
card picker (`pan serve --dealer`), which shows it live before anything is recorded."""

from __future__ import annotations

from collections.abc import Sequence

from pancli.games.panguingue.conditions import NONE, describe, tag_of
from pancli.games.panguingue.rules import HouseRules
from pancli.games.panguingue.rulings import judge, judge_addition


def verdict(cards: Sequence[str], rules: HouseRules, onto: Sequence[str] | None = None) -> dict:
    """``{"valid", "text", "pays"}``: the cards as a new meld, or as an addition to ``onto``."""
    if onto:
        meld = tuple(onto)
        base = judge(meld, rules)
        if not base.valid:
            return {"valid": False, "text": f"not legal: the meld itself is not legal: {base.reason}", "pays": 0}
        ruling = judge_addition(meld, tag_of(meld, rules), tuple(cards), rules)
        if ruling.legal:
            return {"valid": True, "text": f"legal addition: {ruling.reason}",  # as `pan check` says it
                    "pays": ruling.pays}
        return {"valid": False, "text": f"not legal: {ruling.reason}", "pays": 0}
    data = judge(tuple(cards), rules).to_json()
    if not data["valid"]:
        return {"valid": False, "text": f"not legal: {data['reason']}", "pays": 0}
    tag = data["condition"]
    words = "no condition" if not tag or tag == NONE else describe(tag, data["cards"])
    return {"valid": True, "text": f"legal {data['kind']}, {words}; worth {data['worth']} from each payer",
            "pays": data["worth"]}
