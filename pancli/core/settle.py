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
from typing import TYPE_CHECKING, TypedDict

from pancli.core.ledger import HOUSE, POOLS, TOPS
from pancli.core.money import amount, cents_decimal, cents_text, stored_chip_value, to_cents
from pancli.core.words import plural, signed

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject

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


class CreditFlag(TypedDict):
    """The first time a player's stack went below zero: at event ``seq``, in ``hand``."""

    player: str
    seq: int
    hand: int | None
    stack: int


@dataclass
class Settlement:
    parties: list[Party]
    transfers: list[Transfer]
    chip_value: Decimal | None
    banked: bool                        # the session has buy-ins or cash-outs
    flags: list[CreditFlag] = field(default_factory=list)

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


def negative_stacks(moves: list[tuple[int, int | None, str, int]]) -> list[CreditFlag]:
    """Players whose stack went below zero: the first time for each.

    ``moves`` are (seq, hand, player, chips) in the order recorded: buy-ins positive, cash-outs
    negative, chips won and lost in play. Returns [{"player", "seq", "hand", "stack"}].
    """
    stack: dict[str, int] = {}
    flagged: dict[str, CreditFlag] = {}
    for seq, hand, player, chips in moves:
        if player in POOLS:
            continue
        stack[player] = stack.get(player, 0) + chips
        if stack[player] < 0 and player not in flagged:
            flagged[player] = {"player": player, "seq": seq, "hand": hand, "stack": stack[player]}
    return list(flagged.values())


# -- words -------------------------------------------------------------------------------

def signed_chips(chips: int) -> str:
    """'+40 chips', '-1 chip'."""
    return f"{signed(chips)} {'chip' if abs(chips) == 1 else 'chips'}"



def money(chips: int | Decimal, chip_value: Decimal | None) -> str:
    """Chips as money, to the cent (or as chips, without a chip value)."""
    if not chip_value:
        return plural(chips, 'chip') if isinstance(chips, int) else f"{chips} chips"
    return cents_text(int(amount(chips, chip_value) * 100))


def party_money(p: Party, s: Settlement) -> str:
    """A party's balance as the settle-up rounds it."""
    return cents_text(p.cents) if p.cents is not None else money(p.balance, s.chip_value)


def _owed_money(p: Party, s: Settlement) -> str:
    """What a party pays or receives, without a sign: '$14.00', or '28 chips' with no chip value."""
    if p.cents is not None:
        return cents_text(abs(p.cents))
    return money(abs(p.balance), s.chip_value)


def _in_money(p: Party, s: Settlement) -> str:
    """'$13.50 (27 chips)', or '27 chips' with no chip value."""
    chips = plural(abs(p.balance), "chip")
    return f"{_owed_money(p, s)} ({chips})" if s.chip_value else chips


def count(chips: int) -> str:
    """28, 0, -3: a count of chips that may be short, with the minus sign of ``signed``."""
    return signed(chips) if chips < 0 else str(chips)


def _chips_text(chips: int | Decimal) -> str:
    if isinstance(chips, int):
        return plural(chips, 'chip')
    return f"about {chips:.2f} chips".replace(".00 ", " ")


def mode_line(s: Settlement) -> str:
    """The one sentence that says how this settle-up works."""
    if s.banked:
        return ("Bank mode: chips were bought at the bank, so each player is paid for the chips they "
                "hold or pays for any they are short, and the bank pays back what it took in.")
    return "Nobody bought chips at the bank, so each player settles their net from play."


def settles(p: Party, s: Settlement) -> str:
    """What a party does at the settle-up: 'receives $14.00', 'pays $1.50', 'is square'."""
    if p.balance > 0 or (p.cents or 0) > 0:
        return f"receives {_owed_money(p, s)}"
    if p.balance < 0 or (p.cents or 0) < 0:
        return f"pays {_owed_money(p, s)}"
    return "is square"


def holds_note(s: Settlement) -> str:
    """What the holds column adds up, said under the bank's table."""
    if any(p.cashed for p in s.parties):
        return "A player holds what they bought, plus their net from play, less what they cashed out."
    return "A player holds what they bought plus their net from play."


def arithmetic_line(p: Party, s: Settlement) -> str:
    """A player's sum in bank mode, as a sentence: 'Ana bought 20 chips, won 8 in play and holds
    28: Ana receives $14.00.'"""
    play = (f"won {p.net} in play" if p.net > 0 else
            f"lost {-p.net} in play" if p.net < 0 else "broke even in play")
    cashed = f", cashed out {p.cashed}" if p.cashed else ""
    return f"{p.name} bought {plural(p.bought, 'chip')}, {play}{cashed} and holds {count(p.balance)}: {p.name} {settles(p, s)}."


def bank_line(s: Settlement) -> str | None:
    """What the bank took in and gives back, in bank mode."""
    bank = next((p for p in s.parties if p.name == BANK), None)
    if bank is None:
        return None
    sold = sum(p.bought for p in s.parties)
    back = sum(p.cashed for p in s.parties)
    took = f"The bank sold {plural(sold, 'chip')}" + (f" and paid out {back} at cash-outs" if back else "")
    if bank.balance < 0:
        return f"{took}, so it pays back {_in_money(bank, s)}."
    if bank.balance > 0:
        return f"{took}, so it is owed {_in_money(bank, s)}."
    return f"{took}, so it is square."


def position(p: Party, banked: bool) -> str:
    """Why a party is owed or owes: 'Ana is +40 chips'; in bank mode 'Ana holds 28 chips',
    'Cruz is 3 chips short', 'the bank owes 27 chips back'."""
    if p.name == TOPS:
        return (f"the tops {signed(p.balance)} (chips still on the tops)" if not banked else
                f"the tops hold {plural(p.balance, 'chip')}" if p.balance >= 0 else f"the tops are {plural(-p.balance, 'chip')} short")
    if p.name == HOUSE:
        return (f"the house {signed(p.balance)} (house collections)" if not banked else
                f"the house collected {plural(p.balance, 'chip')}")
    if p.name == BANK:
        return (f"the bank owes {plural(-p.balance, 'chip')} back" if p.balance < 0 else
                f"the bank is owed {plural(p.balance, 'chip')}")
    if not banked:
        return f"{p.name} is {signed_chips(p.balance)}"
    return f"{p.name} holds {plural(p.balance, 'chip')}" if p.balance >= 0 else f"{p.name} is {plural(-p.balance, 'chip')} short"


def transfer_line(t: Transfer, s: Settlement) -> str:
    """'Cruz pays Ana $6.50 (26 chips) — Cruz is −26 chips, Ana is +40 chips'."""
    by_name = {p.name: p for p in s.parties}
    payer, payee = by_name[t.payer], by_name[t.payee]
    what = (f"{cents_text(t.cents)} ({_chips_text(t.chips)})" if t.cents is not None
            else money(t.chips, s.chip_value))
    return (f"{payer.label[0].upper() + payer.label[1:]} pays {payee.label} {what} — "
            f"{position(payer, s.banked)}, {position(payee, s.banked)}")


def flag_line(flag: CreditFlag, s: Settlement) -> str:
    """A player whose stack went below zero, in one sentence, with what the host can do: the
    payments already charge a stack that ends short; a buy-in that was not recorded is recorded."""
    name = flag["player"]
    where = f"#{flag['seq']}" + (f", in hand {flag['hand']}" if flag.get("hand") else "")
    p = next((x for x in s.parties if x.name == name), None)
    end = p.balance if p is not None else 0
    if p is not None and end < 0:
        then = f"ends {plural(-end, 'chip')} short, so {name} pays {_owed_money(p, s)} for them above"
    else:
        then = f"ends with {plural(end, 'chip')}, so nothing more is owed for it"
    return (f"{name} played on credit (their stack was {signed_chips(flag['stack'])} at {where}) and {then}; "
            f"if {name} bought chips that were not recorded, record them with `pan buyin {name} CHIPS`.")


def pool_notes(s: Settlement) -> list[str]:
    notes = []
    for p in s.parties:
        if p.name == TOPS and p.balance:
            notes.append(f"{plural(p.balance, 'chip')} {'is' if p.balance == 1 else 'are'} still on the tops: a hand "
                         "is not finished. They belong to whoever wins them; finish or void the hand, or hold "
                         "their value aside.")
        elif p.name == TOPS:
            notes.append(f"The tops are short {plural(-p.balance, 'chip')} (more was paid out of them than in).")
        elif p.name == HOUSE and p.balance:
            notes.append(f"The house collected {plural(p.balance, 'chip')} ({party_money(p, s)}): "
                         "they leave the players for good.")
    return notes


def to_json(s: Settlement) -> JsonObject:
    """Plain data; money as exact Decimals to the cent (JSON writes them as strings). The words
    (``mode_line``, each party's ``settles`` and, in bank mode, ``holds`` and ``line``, each flag's
    ``line``) are the sentences `pan settle` prints."""
    def m(cents: int | None) -> Decimal | None:
        return cents_decimal(cents) if cents is not None else None

    def party(p: Party) -> JsonObject:
        row: JsonObject = {"name": p.name, "balance": p.balance, "money": m(p.cents), "net": p.net,
               "bought": p.bought, "cashed_out": p.cashed, "settles": settles(p, s)}
        if s.banked and p.name not in PARTY_NAMES:
            row.update(holds=p.balance, line=arithmetic_line(p, s))
        return row

    return {
        "chip_value": s.chip_value, "banked": s.banked, "mode": "bank" if s.banked else "net",
        "mode_line": mode_line(s), "bank_line": bank_line(s),
        "parties": [party(p) for p in s.parties],
        "transfers": [{"payer": t.payer, "payee": t.payee, "chips": t.chips, "money": m(t.cents),
                       "line": transfer_line(t, s)} for t in s.transfers],
        "flags": [{**f, "line": flag_line(f, s)} for f in s.flags], "notes": pool_notes(s), "sum": s.total,
    }
