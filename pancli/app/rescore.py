"""`pan rescore`: what the recorded play of a session would have paid under other house rules,
skipping what those rules forbid and saying why (the replay: app/replay.py). The session is not
changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pancli.app.replay import Replayed, moves, nets, replay
from pancli.core.ledger import POOLS
from pancli.core.rows import LoggedEvent, Session

if TYPE_CHECKING:
    from pancli.games.protocol import Game


@dataclass
class Rescore:
    rows: list[dict[str, Any]]               # per player: name, recorded, rescored, difference
    illegal: list[dict[str, Any]]            # per skipped event: seq, hand, what, why
    pools: dict[str, dict[str, Any]]         # per pool: recorded, rescored
    hand: int | None
    changed_rules: dict[str, Any]  # knob: [recorded value, rescored value]

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "rules_changed": self.changed_rules, "players": self.rows,
                "pools": self.pools, "illegal": self.illegal,
                "sum": {"recorded": sum(r["recorded"] for r in self.rows) + sum(p["recorded"] for p in self.pools.values()),
                        "rescored": sum(r["rescored"] for r in self.rows) + sum(p["rescored"] for p in self.pools.values())}}


def rescore(game: Game[Any, Any], session: Session, events: list[LoggedEvent], new_rules: Any, hand: int | None = None) -> Rescore:
    """The recorded play of a session paid again under ``new_rules``; the session is not changed.

    ``recorded`` is what the stored payments say; ``rescored`` what the replay pays. With
    ``hand``, both count only the events recorded in that hand.
    """
    recorded_by_seq = {ev.seq: ev for ev in events}
    if all(ev.payments is not None for ev in events):
        voided = {ev.undo_of for ev in events if ev.kind == "undo"}
        old = [Replayed(ev, ev.payload, ev.hand, payments=list(ev.payments or ()), voided=ev.seq in voided)
               for ev in events]
    else:  # an archive without payments: what the session's own rules pay
        old = replay(game, game.rules_from_dict(session.rules), session.players, session.dealer, events)
    new = replay(game, new_rules, session.players, session.dealer, events)
    # Filter by the hand each event was recorded in, whatever the replay numbered it.
    recorded_hand = {ev.seq: ev.hand for ev in events}
    if hand is not None:
        keep = {s for s, h in recorded_hand.items() if h == hand}
        old = [r for r in old if r.seq in keep]
        new = [r for r in new if r.seq in keep]
    before, after = nets(old), nets(new)
    names = [p for p in session.players]
    for r in list(old) + list(new):
        for payer, payee, _chips in moves(r.payments):
            for n in (payer, payee):
                if n not in names and n not in POOLS:
                    names.append(n)
    rows: list[dict[str, Any]] = [{"name": n, "recorded": before.get(n, 0), "rescored": after.get(n, 0),
                                   "difference": after.get(n, 0) - before.get(n, 0)} for n in names]
    rows.sort(key=lambda x: (-x["rescored"], x["name"]))
    pools = {p.strip("()"): {"recorded": before.get(p, 0), "rescored": after.get(p, 0)}
             for p in POOLS if before.get(p) or after.get(p)}
    illegal = [{"seq": r.seq, "hand": recorded_hand.get(r.seq), "kind": r.kind,
                "what": game.event_words(recorded_by_seq[r.seq].payload),
                "why": r.error} for r in new if r.error]
    old_rules = session.rules
    new_dict = game.rules_to_dict(new_rules)
    changed = {k: [old_rules.get(k), v] for k, v in new_dict.items() if old_rules.get(k) != v}
    return Rescore(rows, illegal, pools, hand, changed)
