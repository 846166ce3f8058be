"""Polish Pan behind the game contract."""

from __future__ import annotations

from pancli.games.protocol import GameBase, dealer_of, place


class Polish(GameBase):
    """The Polish shedding game Pan: a letter of P-A-N for each lost deal; the first to complete it loses."""

    name = "polish"
    title = "Polish Pan"
    commands = "pancli.cli.polish:polish_app"

    @property
    def schema(self):
        from pancli.games.polish.rules import SCHEMA

        return SCHEMA

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.games.polish.engine import new_state

        return new_state(rules, players)

    def apply(self, state, event: dict):
        from pancli.games.polish.engine import apply

        return apply(state, event)

    def hand_number(self, state) -> int | None:
        return len(state.deals) or None

    def players(self, state) -> list[str]:
        return list(state.players)

    def status(self, state) -> str | None:
        return "over" if state.over else f"deal {len(state.deals) + 1}"

    def board(self, session: dict, state) -> dict:
        from pancli.games.polish.engine import standings

        players = list(state.players)
        return {"session": session["name"], "word": state.rules.word, "deals": len(state.deals),
                "losers": list(state.deals), "over": state.over, "loser": state.loser,
                "next_dealer": None if state.over else dealer_of(session, players, len(state.deals) + 1),
                "letters": {p: state.letters_of(p) for p in players}, "standings": standings(state),
                "clock_minutes": state.rules.clock_minutes}

    def standings(self, rules_data: dict, rows: list[dict]):
        word = self.rules_from_dict(rules_data).word
        for row in rows:
            for stat in ("letters", "deals_played", "deals_lost", "games_lost"):
                row.setdefault(stat, 0)
            row["word"] = word[:row["letters"]]
        key = lambda r: r["letters"]  # noqa: E731
        rows = sorted(rows, key=key)
        place(rows, key)
        return rows, ["word", "deals_played", "deals_lost"]
