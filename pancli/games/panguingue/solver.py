"""The arrangement solver: the best way to lay a bag of cards as melds, or proof there is none.

"Best" means the largest total condition worth, each meld judged as a new meld (§6.10); among
arrangements of equal worth, the one with fewer melds. The solver also checks a going-out
layout: exactly eleven cards in one to three valid melds (§4.9).

How the search works. Cards are counted in a 40-slot vector indexed by rank then suit. The
lowest remaining rank r is settled in one step: every card of rank r either starts a rope
(nothing lower is left, so a rope holding it starts at r) or belongs to a set of rank r. The
search tries every collection of ropes starting at r, hands the rank-r cards left over to the
set partitioner, and recurses on what remains; results are memoised per remaining multiset.

The set partitioner never enumerates sets card by card. A set is either one-suit or mixed, and
a mixed set's worth depends only on its size (the valle-mixed tag is never doubled), so for one
rank it chooses how many cards of each suit go to one-suit sets and then only needs to know
into how many mixed sets the rest can go: j mixed sets exist exactly when the suits can supply
j cores of three different suits (any_suit), or when no suit has more than j cards and every
set holds 3 or 4 (new_suit_only). A/K sets may mix suits freely.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from pancli.core.errors import RuleError
from pancli.core.i18n import _, ngettext
from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import NON_COMOQUERS, ORDINAL, RANKS, SUITS, format_card, format_cards, over_shoe
from pancli.games.panguingue.melds import ROPE, SET, check_meld, meld_order
from pancli.games.panguingue.rules import DEFAULTS, HouseRules
from pancli.games.panguingue.rulings import judge

OUT_CARDS = 11       # cards melded to go out (§4.9)
MAX_OUT_MELDS = 3    # eleven cards make at most three melds of three or more

_NR, _NS = len(RANKS), len(SUITS)

if TYPE_CHECKING:
    # How one rank's sets are made: one-suit set sizes per suit, the pool left for mixed sets,
    # and the mixed sets' sizes.
    _SetPlan = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]
    # One step of the search: the rank settled, its ropes (suit, length), its sets' plan.
    _Step = tuple[int, tuple[tuple[int, int], ...], _SetPlan | None]
_INDEX = {r + s: i * _NS + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_CARD = [r + s for r in RANKS for s in SUITS]


@dataclass(frozen=True)
class PlacedMeld:
    """One meld of an arrangement, with the condition it carries as a new meld."""

    cards: tuple[str, ...]
    kind: str     # "set" | "rope"
    tag: str      # a condition tag of pancli.games.panguingue.conditions
    worth: int

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "valid": True, "kind": self.kind,
                "condition": self.tag, "worth": self.worth}


@dataclass(frozen=True)
class Arrangement:
    """Melds in display order (lowest rank first, ropes before sets of the same rank)."""

    melds: tuple[PlacedMeld, ...]

    @property
    def worth(self) -> int:
        return sum(m.worth for m in self.melds)

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for m in self.melds for c in m.cards)

    def __len__(self) -> int:
        return len(self.melds)

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "valid": True, "worth": self.worth,
                "melds": [m.to_json() for m in self.melds]}


# -- public API --------------------------------------------------------------------------------


def solve(cards: Iterable[str], rules: HouseRules = DEFAULTS) -> Arrangement | None:
    """The best legal arrangement of all these cards into melds, or None if there is none.

    Every card must be used. None also when the bag holds more copies of a card than the shoe.
    An empty bag has the empty arrangement.
    """
    cards = tuple(cards)
    solver = _solver(rules)
    if over_shoe(cards, solver.shoe):
        return None
    return solver.solve(cards)


def arrange(cards: Iterable[str], rules: HouseRules = DEFAULTS) -> Arrangement:
    """Like :func:`solve`, but raise a RuleError that says why when there is no arrangement."""
    cards = tuple(cards)
    found = solve(cards, rules)
    if found is None:
        raise RuleError(*why_not(cards, rules))
    return found


def check_out(cards: Iterable[str], rules: HouseRules = DEFAULTS) -> Arrangement:
    """A going-out layout made of exactly these cards: eleven cards in one to three melds.

    Raises RuleError with the reason when the cards are not a legal way out.
    """
    cards = tuple(cards)
    _check_out_count(len(cards))
    found = solve(cards, rules)
    if found is None:
        raise RuleError(*why_not(cards, rules))
    return found


def check_layout(melds: Sequence[Sequence[str]], rules: HouseRules = DEFAULTS, *,
                 going_out: bool = True) -> Arrangement:
    """Judge melds as the player grouped them (each as a new meld); raise RuleError if illegal.

    With ``going_out`` the layout must also be a way out: eleven cards in one to three melds.
    """
    groups = [tuple(m) for m in melds]
    if going_out:
        _check_out_count(sum(len(m) for m in groups))
        if len(groups) > MAX_OUT_MELDS:
            raise RuleError(ngettext("{n} melds is not out", "{n} melds is not out", len(groups)).format(n=len(groups)),
                            _("eleven cards make at most three melds"))
    all_cards = [c for m in groups for c in m]
    extra = over_shoe(all_cards, rules.shoe())
    if extra:
        raise RuleError(_("the layout cannot be on the table: the shoe holds only {n} of {card}").format(
            n=rules.shoe()[extra], card=format_card(extra)), _("check the cards"))
    placed = []
    for group in groups:
        ruling = judge(group, rules)
        if not ruling.valid:
            raise RuleError(*ruling.reason.split(": ", 1))
        assert ruling.kind is not None and ruling.condition is not None  # a valid ruling names both
        placed.append(PlacedMeld(tuple(meld_order(group)), ruling.kind, ruling.condition, ruling.worth))
    return Arrangement(tuple(placed))


def why_not(cards: Sequence[str], rules: HouseRules = DEFAULTS) -> tuple[str, str]:
    """Message and hint explaining why these cards have no legal arrangement."""
    cards = tuple(cards)
    shown = format_cards(_display(cards))
    if not cards:
        return _("no cards"), _("give at least three cards")
    extra = over_shoe(cards, rules.shoe())
    if extra:
        return (_("{cards} cannot be on the table").format(cards=shown),
                _("the shoe holds only {n} of {card}").format(n=rules.shoe()[extra], card=format_card(extra)))
    if len(cards) < 3:
        return _("{cards} cannot be melded").format(cards=shown), _("a meld needs at least 3 cards")
    for c in _display(set(cards)):
        if not _fits_some_meld(c, cards, rules):
            return (_("{cards} cannot all be melded").format(cards=shown),
                    _("{card} fits no meld with these cards").format(card=format_card(c)))
    return _("{cards} cannot all be melded").format(cards=shown), _("no way to split them into legal melds")


def _check_out_count(n: int) -> None:
    if n != OUT_CARDS:
        raise RuleError(ngettext("{n} card melded is not out", "{n} cards melded is not out", n).format(n=n),
                        _("going out needs {n}").format(n=OUT_CARDS))


# -- the search --------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _solver(rules: HouseRules) -> _Solver:
    """One solver, with its memo tables, per set of house rules (rules are hashable and immutable)."""
    return _Solver(rules)


def _display(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=lambda c: (ORDINAL[c[0]], SUITS.index(c[1])))


class _Solver:
    """Search state shared by every bag judged under one set of house rules.

    Only pure facts about the rules are kept between bags (what a rope or a set of a given
    shape is worth, the best way to split one rank's cards into sets); the memo of the search
    itself is made fresh for every bag.
    """

    def __init__(self, rules: HouseRules):
        self.rules = rules
        self.max_size = rules.max_meld_size
        self.new_suit_only = rules.mixed_set_additions == "new_suit_only"
        self.shoe = rules.shoe()
        self.best_sets = lru_cache(maxsize=8192)(self._best_sets)
        self.rope_worth = lru_cache(maxsize=None)(self._rope_worth)
        self.suited_plan = lru_cache(maxsize=None)(self._suited_plan)
        self.mixed_plan = lru_cache(maxsize=8192)(self._mixed_plan)
        self.partition = lru_cache(maxsize=None)(self._partition)
        self.size_worth = lru_cache(maxsize=None)(self._size_worth)

    # worth of single melds ------------------------------------------------------------
    def _worth(self, cards: Sequence[str]) -> int:
        return conditions.worth(conditions.tag_of(cards, self.rules), cards, self.rules)

    def _rope_worth(self, suit: int, start: int, length: int) -> int:
        return self._worth([_CARD[(start + k) * _NS + suit] for k in range(length)])

    def _size_worth(self, shape: tuple[Any, ...], k: int) -> int:
        """Worth of a k-card set: shape ("suited", rank, suit) or ("mixed", rank)."""
        r = RANKS[shape[1]]
        if shape[0] == "suited":
            return self._worth([r + SUITS[shape[2]]] * k)
        # a mixed set holding at least three suits (for A/K: two, never a condition either way)
        return self._worth(([r + s for s in SUITS] * 3)[:k])

    def _partition(self, shape: tuple[Any, ...], total: int, parts: int, hi: int) -> tuple[int, tuple[int, ...]] | None:
        """Best sizes (3..hi each) for ``parts`` sets of ``shape`` holding ``total`` cards."""
        lo = 3
        if parts == 0:
            return (0, ()) if total == 0 else None
        if not lo * parts <= total <= hi * parts:
            return None
        # dp over the sets: best[t] = (worth, sizes) for the sets so far holding t cards
        best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
        for i in range(parts):
            left = parts - i - 1
            nxt: dict[int, tuple[int, tuple[int, ...]]] = {}
            for t, (w, sizes) in best.items():
                for k in range(lo, hi + 1):
                    u = t + k
                    if u + lo * left > total or u + hi * left < total:
                        continue
                    cand = (w + self.size_worth(shape, k), sizes + (k,))
                    if u not in nxt or cand[0] > nxt[u][0]:
                        nxt[u] = cand
            best = nxt
        return best.get(total)

    def _best_over_parts(self, shape: tuple[Any, ...], n: int, hi: int,
                         fits: Callable[[int], bool] | None = None) -> tuple[int, int, tuple[int, ...]] | None:
        """(worth, melds, sizes): the best number of sets for n cards, fewest on a tie."""
        best = None
        for parts in range(1, n // 3 + 1):
            if fits is not None and not fits(parts):
                continue
            got = self.partition(shape, n, parts, hi)
            if got is not None and (best is None or got[0] > best[0]):
                best = (got[0], parts, got[1])
        return best

    def _suited_plan(self, rank: int, suit: int, n: int) -> tuple[int, int, tuple[int, ...]] | None:
        """Best split of n same cards into one-suit sets: (worth, melds, sizes)."""
        if n == 0:
            return (0, 0, ())
        return self._best_over_parts(("suited", rank, suit), n, self.max_size)

    def _mixed_plan(self, rank: int, pool: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]] | None:
        """Best split of a pool of one rank's cards into sets that are not one-suit."""
        total = sum(pool)
        if total == 0:
            return (0, 0, ())
        shape = ("mixed", rank)
        if RANKS[rank] in NON_COMOQUERS:
            return self._best_over_parts(shape, total, self.max_size)  # A/K sets take any suits
        if self.new_suit_only:
            return self._best_over_parts(shape, total, min(_NS, self.max_size),
                                         lambda parts: max(pool) <= parts)
        return self._best_over_parts(shape, total, self.max_size,
                                     lambda parts: sum(min(n, parts) for n in pool) >= 3 * parts)

    def _best_sets(self, rank: int, counts: tuple[int, ...]) -> tuple[int, int, _SetPlan] | None:
        """Best partition of one rank's cards (counts per suit) into sets, or None.

        Returns (worth, melds, plan) where plan = (suited sizes per suit, mixed pool, mixed sizes).
        """
        options = []
        for s, n in enumerate(counts):
            opts = []
            for y in (0, *range(3, n + 1)):
                got = self.suited_plan(rank, s, y)
                if got is not None:
                    opts.append((y, got))
            options.append(opts)
        best = None
        for choice in product(*options):
            pool = tuple(n - y for n, (y, _c) in zip(counts, choice))
            mixed = self.mixed_plan(rank, pool)
            if mixed is None:
                continue
            w = mixed[0] + sum(p[0] for _c, p in choice)
            m = mixed[1] + sum(p[1] for _c, p in choice)
            if best is None or (w, -m) > (best[0], -best[1]):
                best = (w, m, (tuple(p[2] for _c, p in choice), pool, mixed[2]))
        return best

    # the search over the whole bag -----------------------------------------------------
    def solve(self, cards: tuple[str, ...]) -> Arrangement | None:
        if not cards:
            return Arrangement(())
        counts = Counter(_INDEX[c] for c in cards)
        search = _Search(self, max(counts.values()) + 1)
        state = sum(n * search.place[i] for i, n in counts.items())
        if search.best(state, 0) is None:
            return None
        melds: list[PlacedMeld] = []
        while state:
            found = search.memo[state]
            assert found is not None  # every state on the best path has an arrangement
            _w, _m, step, state = found
            melds.extend(self._build(step))
        melds.sort(key=_meld_key)
        return Arrangement(tuple(melds))

    # rebuilding the melds of one step -----------------------------------------------------
    def _build(self, step: _Step) -> list[PlacedMeld]:
        rank, ropes, plan = step
        out = []
        for suit, length in ropes:
            out.append(self._placed([_CARD[(rank + k) * _NS + suit] for k in range(length)]))
        if plan is not None:
            suited, pool, mixed_sizes = plan
            for suit, sizes in enumerate(suited):
                c = _CARD[rank * _NS + suit]
                out.extend(self._placed([c] * k) for k in sizes)
            out.extend(self._placed(g) for g in _deal_mixed(rank, pool, mixed_sizes, self.new_suit_only))
        return out

    def _placed(self, cards: Sequence[str]) -> PlacedMeld:
        check = check_meld(cards, self.rules.mixed_set_additions, self.max_size)
        assert check.valid and check.kind is not None, check.reason
        tag = conditions.tag_of(cards, self.rules)
        return PlacedMeld(tuple(meld_order(cards)), check.kind, tag,
                          conditions.worth(tag, cards, self.rules))


class _Search:
    """The memoised search for one bag.

    A state is the remaining multiset packed into one integer: digit i (base ``base``) counts
    card i, cards indexed by rank then suit. Ranks below the one being settled are always empty.
    """

    def __init__(self, solver: _Solver, base: int):
        self.solver = solver
        self.base = base
        self.place, self.rank_span, self.run = _powers(base)
        self.memo: dict[int, tuple[Any, ...] | None] = {}

    def digits(self, state: int, rank: int) -> tuple[int, ...]:
        x = state // self.place[rank * _NS]
        b = self.base
        return (x % b, x // b % b, x // (b * b) % b, x // (b * b * b) % b)

    def best(self, state: int, rank: int) -> tuple[Any, ...] | None:
        """(worth, melds, step, next_state) for the best arrangement of ``state``, or None."""
        if state == 0:
            return (0, 0, None, 0)
        memo = self.memo
        if state in memo:
            return memo[state]
        span = self.rank_span
        while (state // self.place[rank * _NS]) % span == 0:
            rank += 1
        solver = self.solver
        here = self.digits(state, rank)
        per_suit = [self._rope_options(state, rank, suit, here[suit]) for suit in range(_NS)]
        best = None
        sets: tuple[int, int, _SetPlan | None] | None  # (worth, melds, plan) of the sets of this rank
        for combo in product(*per_suit):
            used = (combo[0][0], combo[1][0], combo[2][0], combo[3][0])
            left = (here[0] - used[0], here[1] - used[1], here[2] - used[2], here[3] - used[3])
            n_left = left[0] + left[1] + left[2] + left[3]
            if n_left:
                if n_left < 3:
                    continue
                sets = solver.best_sets(rank, left)
                if sets is None:
                    continue
            else:
                sets = (0, 0, None)
            nxt = state - combo[0][1] - combo[1][1] - combo[2][1] - combo[3][1]
            if n_left:
                base = rank * _NS
                nxt -= (left[0] * self.place[base] + left[1] * self.place[base + 1]
                        + left[2] * self.place[base + 2] + left[3] * self.place[base + 3])
            tail = self.best(nxt, rank + 1) if nxt else (0, 0, None, 0)
            if tail is None:
                continue
            w = combo[0][2] + combo[1][2] + combo[2][2] + combo[3][2] + sets[0] + tail[0]
            m = used[0] + used[1] + used[2] + used[3] + sets[1] + tail[1]
            if best is None or w > best[0] or (w == best[0] and m < best[1]):
                ropes = tuple((suit, length) for suit in range(_NS) for length in combo[suit][3])
                best = (w, m, (rank, ropes, sets[2]), nxt)
        memo[state] = best
        return best

    def _rope_options(self, state: int, rank: int, suit: int, n: int) -> list[tuple[Any, ...]]:
        """Ways the n cards of ``suit`` at ``rank`` can start ropes: (ropes, delta, worth, lengths)."""
        if n == 0:
            return [(0, 0, 0, ())]
        avail = []
        b = self.base
        x = state // self.place[rank * _NS + suit]
        for _i in range(min(_NR - rank, self.solver.max_size)):
            c = x % b
            if c == 0:
                break
            avail.append(c)
            x //= self.rank_span
        if len(avail) < 3:
            return [(0, 0, 0, ())]
        first = self.place[rank * _NS + suit]
        out = []
        for lengths in _rope_multisets(tuple(avail), n):
            delta = sum(first * self.run[L] for L in lengths)
            worth = sum(self.solver.rope_worth(suit, rank, L) for L in lengths)
            out.append((len(lengths), delta, worth, lengths))
        return out


@cache
def _powers(base: int) -> tuple[list[int], int, list[int]]:
    """Digit places, one rank's span, and the delta of a run of n ranks in one suit (per 1 place)."""
    place = [base ** i for i in range(_NR * _NS + 1)]
    span = base ** _NS
    run = [sum(span ** k for k in range(n)) for n in range(_NR + 1)]
    return place, span, run


@cache
def _rope_multisets(avail: tuple[int, ...], most: int) -> tuple[tuple[int, ...], ...]:
    """Multisets of rope lengths (each >= 3, non-increasing) that ``avail`` copies can carry.

    ``avail[k]`` is how many cards of the k-th rank from the start the suit holds; at most
    ``most`` ropes (the cards of the starting rank). Includes the empty choice.
    """
    out: list[tuple[int, ...]] = [()]

    def grow(lengths: tuple[int, ...], cap: int) -> None:
        for length in range(min(cap, len(avail)), 2, -1):
            new = lengths + (length,)
            # ropes are non-increasing, so rope i covers ranks 0..length-1 and every rank k < length
            # is used by the number of ropes at least k+1 long
            if all(sum(1 for L in new if L > k) <= avail[k] for k in range(length)):
                out.append(new)
                if len(new) < most:
                    grow(new, length)

    grow((), len(avail))
    return tuple(out)


def _deal_mixed(rank: int, pool: tuple[int, ...], sizes: tuple[int, ...],
                new_suit_only: bool = False) -> list[list[str]]:
    """Turn a pool of one rank's cards into sets of the given sizes, each of mixed suits.

    Cards are dealt round-robin in suit order, so a suit with no more cards than there are sets
    never lands twice in one set. Under ``new_suit_only`` that is every suit (the plan checked
    it), and the sets come out with 3 or 4 cards; otherwise three "core" cards of different
    suits go to each set first and the rest fill the sets up to their planned sizes.
    """
    r = RANKS[rank]
    parts = len(sizes)
    if parts == 0:
        return []
    groups: list[list[str]] = [[] for _i in range(parts)]
    if new_suit_only:
        dealt = [r + SUITS[s] for s in range(_NS) for _i in range(pool[s])]
        for i, c in enumerate(dealt):
            groups[i % parts].append(c)
        return groups
    cores = [min(n, parts) for n in pool]
    need = 3 * parts
    while sum(cores) > need:
        i = max(range(_NS), key=lambda s: (cores[s], s))
        cores[i] -= 1
    if sum(cores) < need:  # only possible for A/K, whose sets may repeat suits
        cores = _fill_cores(pool, cores, need)
    dealt = [r + SUITS[s] for s in range(_NS) for _i in range(cores[s])]
    for i, c in enumerate(dealt):
        groups[i % parts].append(c)
    extras = [r + SUITS[s] for s in range(_NS) for _i in range(pool[s] - cores[s])]
    for g, size in zip(groups, sizes):
        while len(g) < size:
            g.append(extras.pop())
    return groups


def _fill_cores(pool: tuple[int, ...], cores: list[int], need: int) -> list[int]:
    cores = list(cores)
    s = 0
    while sum(cores) < need:
        if cores[s] < pool[s]:
            cores[s] += 1
        s = (s + 1) % _NS
    return cores


def _meld_key(m: PlacedMeld) -> tuple[Any, ...]:
    first = m.cards[0]
    return (ORDINAL[first[0]], 0 if m.kind == ROPE else 1, SUITS.index(first[1]), -len(m.cards), m.cards)


def _fits_some_meld(card: str, cards: Sequence[str], rules: HouseRules) -> bool:
    """Whether some legal meld made only of ``cards`` holds ``card``."""
    have = Counter(cards)
    rank, suit = card[0], card[1]
    same_rank = [c for c in have.elements() if c[0] == rank]
    if len(same_rank) >= 3:
        # the card with two others of its suit, or with cards of two other suits, or any A/K
        if have[card] >= 3 or rank in NON_COMOQUERS:
            return True
        other_suits = {c[1] for c in same_rank} - {suit}
        if len(other_suits) >= 2:
            return True
    o = ORDINAL[rank]
    run = [o]
    for step in (-1, 1):
        k = o + step
        while 1 <= k <= _NR and have[RANKS[k - 1] + suit]:
            run.append(k)
            k += step
    return len(run) >= 3


__all__ = ["Arrangement", "PlacedMeld", "solve", "arrange", "check_out", "check_layout", "why_not",
           "OUT_CARDS", "SET", "ROPE"]
