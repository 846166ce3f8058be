"""The contract game behind the game contract."""

from __future__ import annotations

from pancli.games.protocol import GameBase, dealer_of, place


class Contract(GameBase):
    """Mendelev's five-deal contract rummy: points per deal, running totals, a winner after deal 5."""

    name = "contract"
    title = "Contract rummy (five deals)"
    commands = "pancli.cli.contract:contract_app"

    @property
    def schema(self):
        from pancli.games.contract.rules import SCHEMA

        return SCHEMA

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.games.contract.engine import new_state

        return new_state(rules, players)

    def apply(self, state, event: dict):
        from pancli.games.contract.engine import apply

        return apply(state, event)

    def hand_number(self, state) -> int | None:
        # An event that finishes a deal leaves the state at the start of the next one; it belongs
        # to the deal it scored.
        if state.over or not (state.down or state.table or state.out):
            return len(state.history) or None
        return state.deal

    def players(self, state) -> list[str]:
        return list(state.players)

    def meld_numbers(self, state, owner: str | None = None) -> list[int]:
        return [i for i, m in enumerate(state.table, 1) if owner in (None, m.owner)]

    def status(self, state) -> str | None:
        return "over" if state.over else f"deal {state.deal}"

    def board(self, session: dict, state) -> dict:
        from pancli.games.contract.engine import CONTRACTS, DEALS, describe_contract, parse_cards, standings, winners

        players = list(state.players)
        return {"session": session["name"], "deal": state.deal, "deals": DEALS,
                "contract": describe_contract(state.deal), "contract_counts": CONTRACTS[state.deal],
                "dealer": dealer_of(session, players, state.deal), "over": state.over,
                "down": list(state.down), "out": state.out,
                "table": [{"number": i, "owner": m.owner, "kind": m.kind, "cards": list(m.cards),
                           "shown": " ".join(str(c) for c in parse_cards(m.cards))}
                          for i, m in enumerate(state.table, 1)],
                "left": {x.player: x.points for x in state.leftovers},
                "totals": {p: state.total(p) for p in players},
                "history": [dict(zip(players, h)) for h in state.history],
                "standings": standings(state), "scoring": state.rules.scoring,
                "winners": winners(state) if state.over else []}

    def standings(self, rules_data: dict, rows: list[dict]):
        highest = self.rules_from_dict(rules_data).scoring == "signed"
        for row in rows:
            for stat in ("points", "deals_played", "deals_won"):
                row.setdefault(stat, 0)
        key = (lambda r: -r["points"]) if highest else (lambda r: r["points"])
        rows = sorted(rows, key=key)
        place(rows, key)
        return rows, ["points", "deals_played", "deals_won"]
