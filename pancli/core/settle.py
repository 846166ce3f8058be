"""Settle-up: who pays whom at the end of the night, in as few payments as the greedy rule gives.

Each party has a balance in chips: what it is owed (positive) or owes (negative).
* A player's balance is his net from play. When the session has buy-ins or cash-outs, money has
  already changed hands at the bank, so his balance is his stack: bought + net − cashed out.
* The bank, if there is one, owes back what it took in: cashed out − bought.
* Chips on the pools are shown as parties too, never hidden: the house keeps its collections,
  and chips still on the tops (a hand not finished) belong to whoever wins them.
The balances sum to zero. The greedy rule pays the largest debtor to the largest creditor until
all are square; each payment squares at least one party, so n parties need at most n − 1.
Pure functions only: the caller reads the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pancli.core.ledger import HOUSE, POOLS, TOPS

BANK = "(bank)"
PARTY_NAMES = {BANK: "the bank", TOPS: "the tops", HOUSE: "the house"}


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    chips: int


@dataclass
class Party:
    name: str
    balance: int           # chips owed to (+) or by (−) this party
    net: int = 0           # chips won or lost in play
    bought: int = 0
    cashed: int = 0

    @property
    def label(self) -> str:
        return PARTY_NAMES.get(self.name, self.name)


@dataclass
class Settlement:
    parties: list[Party]
    transfers: list[Transfer]
    chip_value: float | None
    banked: bool                        # the session has buy-ins or cash-outs
    flags: list[dict] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(p.balance for p in self.parties)


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
           chip_value: float | None = None, players: list[str] | None = None) -> Settlement:
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
    transfers = minimal_transfers(balances)
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
    """+40, −26 (a true minus sign), 0."""
    return f"+{chips}" if chips > 0 else (f"−{-chips}" if chips < 0 else "0")


def money(chips: int, chip_value: float | None) -> str:
    if not chip_value:
        return f"{chips} chips"
    amount = round(chips * chip_value + 0.0, 2)
    return f"${amount:,.2f}" if amount >= 0 else f"−${-amount:,.2f}"


def position(p: Party, banked: bool) -> str:
    """Why a party is owed or owes: 'Ana +40', 'Cruz −26 (bought 100, net −26, cashed out 100)'."""
    if p.name == BANK:
        return f"the bank {signed(p.balance)} (buy-ins it must pay back)"
    if p.name == TOPS:
        return f"the tops {signed(p.balance)} (chips still on the tops)"
    if p.name == HOUSE:
        return f"the house {signed(p.balance)} (house collections)"
    if not banked:
        return f"{p.name} is {signed(p.balance)} chips"
    return (f"{p.name}'s stack is {signed(p.balance)} (bought {p.bought}, play {signed(p.net)}, "
            f"cashed out {p.cashed})")


def transfer_line(t: Transfer, s: Settlement) -> str:
    """'Cruz pays Ana $6.50 — Cruz is −26 chips, Ana is +40 chips'."""
    by_name = {p.name: p for p in s.parties}
    payer, payee = by_name[t.payer], by_name[t.payee]
    what = money(t.chips, s.chip_value) + (f" ({t.chips} chips)" if s.chip_value else "")
    return (f"{payer.label[0].upper() + payer.label[1:]} pays {payee.label} {what} — "
            f"{position(payer, s.banked)}, {position(payee, s.banked)}")


def pool_notes(s: Settlement) -> list[str]:
    notes = []
    for p in s.parties:
        if p.name == TOPS and p.balance:
            notes.append(f"{p.balance} chips are still on the tops: a hand is not finished. They belong to "
                         "whoever wins them; finish or void the hand, or hold their value aside.")
        elif p.name == TOPS:
            notes.append(f"The tops are short {-p.balance} chips (more was paid out of them than in).")
        elif p.name == HOUSE and p.balance:
            notes.append(f"The house collected {p.balance} chips ({money(p.balance, s.chip_value)}): "
                         "they leave the players for good.")
    return notes


def to_json(s: Settlement) -> dict:
    cv = s.chip_value

    def m(chips):
        return round(chips * cv, 2) if cv else None

    return {
        "chip_value": cv, "banked": s.banked,
        "parties": [{"name": p.name, "balance": p.balance, "money": m(p.balance), "net": p.net,
                     "bought": p.bought, "cashed_out": p.cashed} for p in s.parties],
        "transfers": [{"payer": t.payer, "payee": t.payee, "chips": t.chips, "money": m(t.chips),
                       "line": transfer_line(t, s)} for t in s.transfers],
        "flags": s.flags, "notes": pool_notes(s), "sum": s.total,
    }
