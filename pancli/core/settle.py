"""Settle-up: who pays whom at the end of the night, in as few payments as the greedy rule gives.

Each party has a balance in chips: what it is owed (positive) or owes (negative).
* A player's balance is their net from play. When the session has buy-ins or cash-outs, money has
  already changed hands at the bank, so their balance is their stack: bought + net − cashed out.
* The bank, if there is one, owes back what it took in: cashed out − bought.
* Chips on the pools are shown as parties too, never hidden: the house keeps its collections,
  and chips still on the tops (a hand not finished) belong to whoever wins them.
The balances sum to zero. The greedy rule pays the largest debtor to the largest creditor until
all are square; each payment squares at least one party, so n parties need at most n − 1.

With a chip value, money is exact: every balance is rounded to the cent so that the rounded
balances still sum to zero (largest remainder, ``money.to_cents``), and the payments are worked
out in whole cents, so they add up to each rounded balance exactly.
Pure functions only: the caller reads the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from pancli.core.ledger import HOUSE, POOLS, TOPS
from pancli.core.money import amount, cents_decimal, cents_text, stored_chip_value, to_cents
from pancli.core.words import MINUS, plural

BANK = "(bank)"
PARTY_NAMES = {BANK: "the bank", TOPS: "the tops", HOUSE: "the house"}


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    chips: int | Decimal           # a whole number, unless a chip is worth a fraction of a cent
    cents: int | None = None       # the money, when the session has a chip value


@dataclass
class Party:
    name: str
    balance: int           # chips owed to (+) or by (−) this party
    net: int = 0           # chips won or lost in play
    bought: int = 0
    cashed: int = 0
    cents: int | None = None   # the balance in money, rounded to the cent (see to_cents)

    @property
    def label(self) -> str:
        return PARTY_NAMES.get(self.name, self.name)


@dataclass
class Settlement:
    parties: list[Party]
    transfers: list[Transfer]
    chip_value: Decimal | None
    banked: bool                        # the session has buy-ins or cash-outs
    flags: list[dict] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(p.balance for p in self.parties)

    def square(self) -> bool:
        """True when the balances sum to zero and the transfers square every party exactly (in
        cents when there is a chip value, else in chips): what the check line says."""
        money = self.chip_value is not None
        left: dict[str, int | Decimal] = {p.name: (_cents(p.cents) if money else p.balance) for p in self.parties}
        for t in self.transfers:
            amount = _cents(t.cents) if money else t.chips
            left[t.payer] += amount
            left[t.payee] -= amount
        return self.total == 0 and sum(left.values()) == 0 and not any(left.values())


def _cents(cents: int | None) -> int:
    if cents is None:
        raise ValueError("a settlement with a chip value has every amount in cents")
    return cents


def minimal_transfers(balances: dict[str, int]) -> list[Transfer]:
    """Greedy largest-creditor/largest-debtor: at most (parties with a balance) − 1 transfers.

    The balances must sum to zero. Ties are broken by name so the result is stable.
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"balances sum to {sum(balances.values())}, not 0")
    credit = {n: b for n, b in balances.items() if b > 0}
    debt = {n: -b for n, b in balances.items() if b < 0}
    out: list[Transfer] = []
    while credit and debt:
        c = min(credit, key=lambda n: (-credit[n], n))
        d = min(debt, key=lambda n: (-debt[n], n))
        chips = min(credit[c], debt[d])
        out.append(Transfer(d, c, chips))
        credit[c] -= chips
        debt[d] -= chips
        if not credit[c]:
            del credit[c]
        if not debt[d]:
            del debt[d]
    return out


def settle(nets: dict[str, int], bank: dict[str, dict[str, int]] | None = None,
           chip_value: Decimal | None = None, players: list[str] | None = None) -> Settlement:
    """Balances and transfers from the play nets (players and pools) and bank tallies.

    ``bank`` maps a player to {"buyin": chips, "cashout": chips}. ``players`` fixes the order
    in which parties are listed (the rest follow by name).
    """
    bank = {p: t for p, t in (bank or {}).items() if t.get("buyin") or t.get("cashout")}
    banked = bool(bank)
    names = [p for p in (players or []) if p not in POOLS]
    names += sorted(p for p in set(nets) | set(bank) if p not in names and p not in POOLS)
    parties = []
    for n in names:
        net = nets.get(n, 0)
        bought, cashed = bank.get(n, {}).get("buyin", 0), bank.get(n, {}).get("cashout", 0)
        parties.append(Party(n, net + bought - cashed if banked else net, net, bought, cashed))
    if banked:
        took = sum(p.bought for p in parties) - sum(p.cashed for p in parties)
        parties.append(Party(BANK, -took))
    for pool in POOLS:
        if nets.get(pool):
            parties.append(Party(pool, nets[pool], nets[pool]))
    balances = {p.name: p.balance for p in parties}
    chip_value = stored_chip_value(chip_value)  # a float or text from a caller: exact, checked
    if not chip_value:
        return Settlement(parties, minimal_transfers(balances), None, banked)
    cents = to_cents(balances, chip_value)
    for p in parties:
        p.cents = cents[p.name]
    transfers = []
    for t in minimal_transfers(cents):
        chips = Decimal(t.chips) / (chip_value * 100)
        transfers.append(Transfer(t.payer, t.payee, int(chips) if chips == chips.to_integral_value() else chips,
                                  int(t.chips)))  # the amount in cents: minimal_transfers of whole cents
    return Settlement(parties, transfers, chip_value, banked)


def negative_stacks(moves: list[tuple[int, int | None, str, int]]) -> list[dict]:
    """Players whose stack went below zero: the first time for each.

    ``moves`` are (seq, hand, player, chips) in the order recorded: buy-ins positive, cash-outs
    negative, chips won and lost in play. Returns [{"player", "seq", "hand", "stack"}].
    """
    stack: dict[str, int] = {}
    flagged: dict[str, dict] = {}
    for seq, hand, player, chips in moves:
        if player in POOLS:
            continue
        stack[player] = stack.get(player, 0) + chips
        if stack[player] < 0 and player not in flagged:
            flagged[player] = {"player": player, "seq": seq, "hand": hand, "stack": stack[player]}
    return list(flagged.values())


# -- words -------------------------------------------------------------------------------

def signed(chips: int) -> str:
    """+40, -26 (the one minus sign of every face: pancli.core.words.MINUS), 0."""
    return f"+{chips}" if chips > 0 else (f"{MINUS}{-chips}" if chips < 0 else "0")


def money(chips: int | Decimal, chip_value: Decimal | None) -> str:
    """Chips as money, to the cent (or as chips, without a chip value)."""
    if not chip_value:
        return plural(chips, "chip") if isinstance(chips, int) else f"{chips} chips"
    return cents_text(int(amount(chips, chip_value) * 100))


def party_money(p: Party, s: Settlement) -> str:
    """A party's balance as the settle-up rounds it."""
    return cents_text(p.cents) if p.cents is not None else money(p.balance, s.chip_value)


def _chips_text(chips) -> str:
    if isinstance(chips, int):
        return plural(chips, "chip")
    return f"about {chips:.2f} chips".replace(".00 ", " ")


def position(p: Party, banked: bool) -> str:
    """Why a party is owed or owes: 'Ana +40', 'Cruz -26 (bought 100, net -26, cashed out 100)'."""
    if p.name == BANK:
        return f"the bank {signed(p.balance)} (buy-ins it must pay back)"
    if p.name == TOPS:
        return f"the tops {signed(p.balance)} (chips still on the tops)"
    if p.name == HOUSE:
        return f"the house {signed(p.balance)} (house collections)"
    if not banked:
        return f"{p.name} is {signed(p.balance)} {'chip' if abs(p.balance) == 1 else 'chips'}"
    return (f"{p.name}'s stack is {signed(p.balance)} (bought {p.bought}, play {signed(p.net)}, "
            f"cashed out {p.cashed})")


def transfer_line(t: Transfer, s: Settlement) -> str:
    """'Cruz pays Ana $6.50 — Cruz is -26 chips, Ana is +40 chips'."""
    by_name = {p.name: p for p in s.parties}
    payer, payee = by_name[t.payer], by_name[t.payee]
    what = (f"{cents_text(t.cents)} ({_chips_text(t.chips)})" if t.cents is not None
            else money(t.chips, s.chip_value))
    return (f"{payer.label[0].upper() + payer.label[1:]} pays {payee.label} {what} — "
            f"{position(payer, s.banked)}, {position(payee, s.banked)}")


def pool_notes(s: Settlement) -> list[str]:
    notes = []
    for p in s.parties:
        if p.name == TOPS and p.balance:
            notes.append(f"{plural(p.balance, 'chip')} {'is' if p.balance == 1 else 'are'} still on the tops: a hand is not finished. They belong to "
                         "whoever wins them; finish or void the hand, or hold their value aside.")
        elif p.name == TOPS:
            notes.append(f"The tops are short {plural(-p.balance, 'chip')} (more was paid out of them than in).")
        elif p.name == HOUSE and p.balance:
            notes.append(f"The house collected {plural(p.balance, 'chip')} ({party_money(p, s)}): "
                         "they leave the players for good.")
    return notes


def to_json(s: Settlement) -> dict:
    """Plain data; money as exact Decimals to the cent (JSON writes them as strings)."""
    def m(cents):
        return cents_decimal(cents) if cents is not None else None

    return {
        "chip_value": s.chip_value, "banked": s.banked,
        "parties": [{"name": p.name, "balance": p.balance, "money": m(p.cents), "net": p.net,
                     "bought": p.bought, "cashed_out": p.cashed} for p in s.parties],
        "transfers": [{"payer": t.payer, "payee": t.payee, "chips": t.chips, "money": m(t.cents),
                       "line": transfer_line(t, s)} for t in s.transfers],
        "flags": s.flags, "notes": pool_notes(s), "sum": s.total,
    }
