"""Ratings for a season from each night's ranking: OpenSkill's Bradley–Terry model in full
pairing, a multiplayer rating that takes a whole table's order at once: every seat beats each seat
below it and ties with each seat level with it (Plackett–Luce, its other model, rates a seat just
below a tie as high as the tie).

Pure: nights in, ratings out. The same nights in the same order give the same ratings on every
host; who is ranked is a key the caller chooses (a person of the club, or a name).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RATED_FROM = 5  # nights before a rating is shown: below that it says more about luck than play


@dataclass(frozen=True)
class Rating:
    mu: float      # the estimate of skill
    sigma: float   # how unsure it still is
    nights: int    # nights that moved it

    @property
    def ordinal(self) -> float:
        """What is shown: the skill the player has with near certainty (mu − 3 sigma)."""
        return self.mu - 3 * self.sigma


def rate_nights(nights: Sequence[Mapping[K, int]]) -> dict[K, Rating]:
    """Each night (the key of every seat -> the chips it ended with), in the order played."""
    from openskill.models import BradleyTerryFull, BradleyTerryFullRating  # noqa: PLC0415 loaded only when a season is rated

    model = BradleyTerryFull()
    held: dict[K, tuple[BradleyTerryFullRating, int]] = {}
    for night in nights:
        if len(night) < 2:
            continue  # a night of one ranks nobody
        keys = sorted(night, key=repr)  # a stable order, whatever order the seats came in
        teams = [[held[k][0] if k in held else model.rating()] for k in keys]
        rated = model.rate(teams, ranks=[-night[k] for k in keys])  # the most chips first; equal nets tie
        for k, team in zip(keys, rated, strict=True):
            held[k] = (team[0], held[k][1] + 1 if k in held else 1)
    return {k: Rating(r.mu, r.sigma, n) for k, (r, n) in held.items()}
