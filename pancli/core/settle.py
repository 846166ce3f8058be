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
from typing import NotRequired, TypedDict

from pancli.core.i18n import ENGLISH, N_, _, language, ngettext
from pancli.core.ledger import HOUSE, POOLS, TOPS
from pancli.core.money import amount, cents_decimal, cents_text, minor_places, stored_chip_value, to_cents
from pancli.core.words import signed

BANK = "(bank)"
# The pools as people call them (in English; party_name translates them where they are shown).
PARTY_NAMES = {BANK: N_("the bank"), TOPS: N_("the tops"), HOUSE: N_("the house")}
# A payment to a pool, one whole sentence a pool: Polish and Russian decline the pool after "pays".
# Translators: {why} says where each stands, e.g. "Cruz is -26 chips, the tops +2"
PAYS_POOL = {BANK: N_("{payer} pays the bank {amount} — {why}"), TOPS: N_("{payer} pays the tops {amount} — {why}"),
             HOUSE: N_("{payer} pays the house {amount} — {why}")}


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
        return party_name(self.name)


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
    currency: str | None = None         # the session's (ISO 4217): ``cents`` are its minor units

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
           chip_value: Decimal | None = None, players: list[str] | None = None,
           currency: str | None = None) -> Settlement:
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
    cents = to_cents(balances, chip_value, currency)
    for p in parties:
        p.cents = cents[p.name]
    transfers = []
    per_chip = chip_value * (100 if currency is None else Decimal(1).scaleb(minor_places(currency)))
    for t in minimal_transfers(cents):
        chips = Decimal(t.chips) / per_chip
        transfers.append(Transfer(t.payer, t.payee, int(chips) if chips == chips.to_integral_value() else chips,
                                  int(t.chips)))  # the amount in cents: minimal_transfers of whole cents
    return Settlement(parties, transfers, chip_value, banked, currency=currency)


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
# Every sentence is one whole message per case, with its count's plural form.

def _chips(n: int | Decimal) -> str:
    """'1 chip', '27 chips', '-3 chips' (English says '-1 chips', as it always has)."""
    if not isinstance(n, int):
        return _("{n} chips").format(n=n)
    return ngettext("{n} chip", "{n} chips", _form(n)).format(n=n)


def _form(n: int) -> int:
    """The count that picks a plural form: its size (English keeps today's "-1 chips")."""
    return n if n == -1 and language() == ENGLISH else abs(n)


def signed_chips(chips: int) -> str:
    """'+40 chips', '-1 chip'."""
    return ngettext("{signed} chip", "{signed} chips", abs(chips)).format(signed=signed(chips))


def party_name(name: str) -> str:
    """A party as people say it: a player's name, or 'the bank', 'the tops', 'the house'."""
    said = PARTY_NAMES.get(name)
    return _(said) if said else name


def money(chips: int | Decimal, chip_value: Decimal | None, currency: str | None = None) -> str:
    """Chips as money, to the cent or the currency's minor unit (or as chips, without a chip value)."""
    if not chip_value:
        return _chips(chips)
    return cents_text(int(amount(chips, chip_value, currency).scaleb(minor_places(currency))), currency)


def party_money(p: Party, s: Settlement) -> str:
    """A party's balance as the settle-up rounds it."""
    return cents_text(p.cents, s.currency) if p.cents is not None else money(p.balance, s.chip_value, s.currency)


def _owed_money(p: Party, s: Settlement) -> str:
    """What a party pays or receives, without a sign: '$14.00', or '28 chips' with no chip value."""
    if p.cents is not None:
        return cents_text(abs(p.cents), s.currency)
    return money(abs(p.balance), s.chip_value, s.currency)


def _in_money(p: Party, s: Settlement) -> str:
    """'$13.50 (27 chips)', or '27 chips' with no chip value."""
    chips = _chips(abs(p.balance))
    return f"{_owed_money(p, s)} ({chips})" if s.chip_value else chips


def count(chips: int) -> str:
    """28, 0, -3: a count of chips that may be short, with the minus sign of ``signed``."""
    return signed(chips) if chips < 0 else str(chips)


def _chips_text(chips: int | Decimal) -> str:
    if isinstance(chips, int):
        return _chips(chips)
    # Translators: a share of a chip worth less than a cent, e.g. "about 6.25 chips"
    return _("about {n} chips").format(n=f"{chips:.2f}".removesuffix(".00"))


def mode_line(s: Settlement) -> str:
    """The one sentence that says how this settle-up works."""
    if s.banked:
        return _("Bank mode: chips were bought at the bank, so each player is paid for the chips they "
                 "hold or pays for any they are short, and the bank pays back what it took in.")
    return _("Nobody bought chips at the bank, so each player settles their net from play.")


def settles(p: Party, s: Settlement) -> str:
    """What a party does at the settle-up: 'receives $14.00', 'pays $1.50', 'is square'."""
    # Translators: the "settles" column of the bank's table: what a player does at the settle-up
    if p.balance > 0 or (p.cents or 0) > 0:
        return _("receives {amount}").format(amount=_owed_money(p, s))
    if p.balance < 0 or (p.cents or 0) < 0:
        return _("pays {amount}").format(amount=_owed_money(p, s))
    return _("is square")


def _settles_said(p: Party, s: Settlement) -> str:
    """'Ana receives $14.00', 'Ana pays $1.50', 'Ana is square'."""
    if p.balance > 0 or (p.cents or 0) > 0:
        return _("{player} receives {amount}").format(player=p.name, amount=_owed_money(p, s))
    if p.balance < 0 or (p.cents or 0) < 0:
        return _("{player} pays {amount}").format(player=p.name, amount=_owed_money(p, s))
    return _("{player} is square").format(player=p.name)


def holds_note(s: Settlement) -> str:
    """What the holds column adds up, said under the bank's table."""
    if any(p.cashed for p in s.parties):
        return _("A player holds what they bought, plus their net from play, less what they cashed out.")
    return _("A player holds what they bought plus their net from play.")


def arithmetic_line(p: Party, s: Settlement) -> str:
    """A player's sum in bank mode, as a sentence: 'Ana bought 20 chips, won 8 in play and holds
    28: Ana receives $14.00.'"""
    n = p.bought
    if p.cashed:
        said = (ngettext("{player} bought {n} chip, won {net} in play, cashed out {cashed} and holds {holds}",
                         "{player} bought {n} chips, won {net} in play, cashed out {cashed} and holds {holds}", n)
                if p.net > 0 else
                ngettext("{player} bought {n} chip, lost {net} in play, cashed out {cashed} and holds {holds}",
                         "{player} bought {n} chips, lost {net} in play, cashed out {cashed} and holds {holds}", n)
                if p.net < 0 else
                ngettext("{player} bought {n} chip, broke even in play, cashed out {cashed} and holds {holds}",
                         "{player} bought {n} chips, broke even in play, cashed out {cashed} and holds {holds}", n))
    else:
        said = (ngettext("{player} bought {n} chip, won {net} in play and holds {holds}",
                         "{player} bought {n} chips, won {net} in play and holds {holds}", n)
                if p.net > 0 else
                ngettext("{player} bought {n} chip, lost {net} in play and holds {holds}",
                         "{player} bought {n} chips, lost {net} in play and holds {holds}", n)
                if p.net < 0 else
                ngettext("{player} bought {n} chip, broke even in play and holds {holds}",
                         "{player} bought {n} chips, broke even in play and holds {holds}", n))
    total = said.format(player=p.name, n=n, net=abs(p.net), cashed=p.cashed, holds=count(p.balance))
    # Translators: {sum} is the player's sum ("Ana bought 20 chips … and holds 28"), {settles} what
    # they do ("Ana receives $14.00")
    return _("{sum}: {settles}.").format(sum=total, settles=_settles_said(p, s))


def bank_line(s: Settlement) -> str | None:
    """What the bank took in and gives back, in bank mode."""
    bank = next((p for p in s.parties if p.name == BANK), None)
    if bank is None:
        return None
    sold = sum(p.bought for p in s.parties)
    back = sum(p.cashed for p in s.parties)
    owed = _in_money(bank, s)
    if back:
        said = (ngettext("The bank sold {n} chip and paid out {back} at cash-outs, so it pays back {amount}.",
                         "The bank sold {n} chips and paid out {back} at cash-outs, so it pays back {amount}.", sold)
                if bank.balance < 0 else
                ngettext("The bank sold {n} chip and paid out {back} at cash-outs, so it is owed {amount}.",
                         "The bank sold {n} chips and paid out {back} at cash-outs, so it is owed {amount}.", sold)
                if bank.balance > 0 else
                ngettext("The bank sold {n} chip and paid out {back} at cash-outs, so it is square.",
                         "The bank sold {n} chips and paid out {back} at cash-outs, so it is square.", sold))
    else:
        said = (ngettext("The bank sold {n} chip, so it pays back {amount}.",
                         "The bank sold {n} chips, so it pays back {amount}.", sold)
                if bank.balance < 0 else
                ngettext("The bank sold {n} chip, so it is owed {amount}.",
                         "The bank sold {n} chips, so it is owed {amount}.", sold)
                if bank.balance > 0 else
                ngettext("The bank sold {n} chip, so it is square.", "The bank sold {n} chips, so it is square.", sold))
    return said.format(n=sold, back=back, amount=owed)


def position(p: Party, banked: bool) -> str:
    """Why a party is owed or owes: 'Ana is +40 chips'; in bank mode 'Ana holds 28 chips',
    'Cruz is 3 chips short', 'the bank owes 27 chips back'."""
    n = abs(p.balance)
    if p.name == TOPS:
        if not banked:
            return _("the tops {signed} (chips still on the tops)").format(signed=signed(p.balance))
        return (ngettext("the tops hold {n} chip", "the tops hold {n} chips", n) if p.balance >= 0 else
                ngettext("the tops are {n} chip short", "the tops are {n} chips short", n)).format(n=n)
    if p.name == HOUSE:
        if not banked:
            return _("the house {signed} (house collections)").format(signed=signed(p.balance))
        return ngettext("the house collected {n} chip", "the house collected {n} chips",
                        _form(p.balance)).format(n=p.balance)
    if p.name == BANK:
        return (ngettext("the bank owes {n} chip back", "the bank owes {n} chips back", n) if p.balance < 0 else
                ngettext("the bank is owed {n} chip", "the bank is owed {n} chips", n)).format(n=n)
    if not banked:
        return ngettext("{player} is {signed} chip", "{player} is {signed} chips", n).format(
            player=p.name, signed=signed(p.balance))
    return (ngettext("{player} holds {n} chip", "{player} holds {n} chips", n) if p.balance >= 0 else
            ngettext("{player} is {n} chip short", "{player} is {n} chips short", n)).format(player=p.name, n=n)


def transfer_line(t: Transfer, s: Settlement) -> str:
    """'Cruz pays Ana $6.50 (26 chips) — Cruz is −26 chips, Ana is +40 chips'."""
    by_name = {p.name: p for p in s.parties}
    payer, payee = by_name[t.payer], by_name[t.payee]
    what = (f"{cents_text(t.cents, s.currency)} ({_chips_text(t.chips)})" if t.cents is not None
            else money(t.chips, s.chip_value, s.currency))
    # Translators: {payer} and {payee} are players' names or "the bank", "the tops", "the house";
    # {why} says where each stands, e.g. "Cruz is -26 chips, Ana is +40 chips"
    said = _(PAYS_POOL[t.payee]) if t.payee in PAYS_POOL else _("{payer} pays {payee} {amount} — {why}")
    line = said.format(
        payer=payer.label, payee=payee.label, amount=what,
        why=_("{payer_stands}, {payee_stands}").format(payer_stands=position(payer, s.banked),
                                                       payee_stands=position(payee, s.banked)))
    return line[:1].upper() + line[1:]


def flag_line(flag: CreditFlag, s: Settlement) -> str:
    """A player whose stack went below zero, in one sentence, with what the host can do: the
    payments already charge a stack that ends short; a buy-in that was not recorded is recorded."""
    name = flag["player"]
    where = (_("#{seq}, in hand {hand}").format(seq=flag["seq"], hand=flag["hand"]) if flag.get("hand")
             else f"#{flag['seq']}")
    p = next((x for x in s.parties if x.name == name), None)
    end = p.balance if p is not None else 0
    stack = signed_chips(flag["stack"])
    if p is not None and end < 0:
        # Translators: {where} is the event, "#12" or "#12, in hand 3"; `pan buyin {player} CHIPS` is a command
        said = ngettext("{player} played on credit (their stack was {stack} at {where}) and ends {n} chip short, "
                        "so {player} pays {amount} for them above; if {player} bought chips that were not "
                        "recorded, record them with `pan buyin {player} CHIPS`.",
                        "{player} played on credit (their stack was {stack} at {where}) and ends {n} chips short, "
                        "so {player} pays {amount} for them above; if {player} bought chips that were not "
                        "recorded, record them with `pan buyin {player} CHIPS`.", -end)
        return said.format(player=name, stack=stack, where=where, n=-end, amount=_owed_money(p, s))
    # Translators: {where} is the event, "#12" or "#12, in hand 3"; `pan buyin {player} CHIPS` is a command
    said = ngettext("{player} played on credit (their stack was {stack} at {where}) and ends with {n} chip, "
                    "so nothing more is owed for it; if {player} bought chips that were not recorded, "
                    "record them with `pan buyin {player} CHIPS`.",
                    "{player} played on credit (their stack was {stack} at {where}) and ends with {n} chips, "
                    "so nothing more is owed for it; if {player} bought chips that were not recorded, "
                    "record them with `pan buyin {player} CHIPS`.", end)
    return said.format(player=name, stack=stack, where=where, n=end)


def pool_notes(s: Settlement) -> list[str]:
    notes = []
    for p in s.parties:
        if p.name == TOPS and p.balance:
            notes.append(ngettext("{n} chip is still on the tops: a hand is not finished. They belong to whoever "
                                  "wins them; finish or void the hand, or hold their value aside.",
                                  "{n} chips are still on the tops: a hand is not finished. They belong to whoever "
                                  "wins them; finish or void the hand, or hold their value aside.",
                                  _form(p.balance)).format(n=p.balance))
        elif p.name == TOPS:
            notes.append(ngettext("The tops are short {n} chip (more was paid out of them than in).",
                                  "The tops are short {n} chips (more was paid out of them than in).",
                                  _form(-p.balance)).format(n=-p.balance))
        elif p.name == HOUSE and p.balance:
            notes.append(ngettext("The house collected {n} chip ({amount}): they leave the players for good.",
                                  "The house collected {n} chips ({amount}): they leave the players for good.",
                                  _form(p.balance)).format(n=p.balance, amount=party_money(p, s)))
    return notes


class PartyJson(TypedDict):
    """One party of `pan settle --json`: a player, the bank or a pool."""

    name: str
    balance: int
    money: Decimal | None
    net: int
    bought: int
    cashed_out: int
    settles: str                 # what it pays or receives, in words
    holds: NotRequired[int]      # bank mode, a player: the chips handed in
    line: NotRequired[str]       # bank mode, a player: the arithmetic in words


class TransferJson(TypedDict):
    """One payment of `pan settle --json`."""

    payer: str
    payee: str
    chips: int | Decimal
    money: Decimal | None
    line: str


class FlagJson(CreditFlag):
    """A stack that went below zero, with the sentence `pan settle` prints for it."""

    line: str


class SettlementJson(TypedDict):
    """`pan settle --json`, its session aside."""

    chip_value: Decimal | None
    banked: bool
    mode: str                    # "bank" or "net"
    mode_line: str
    bank_line: str | None
    parties: list[PartyJson]
    transfers: list[TransferJson]
    flags: list[FlagJson]
    notes: list[str]
    sum: int
    currency: NotRequired[str]   # only when the session has one


def to_json(s: Settlement) -> SettlementJson:
    """Plain data; money as exact Decimals to the cent (JSON writes them as strings). The words
    (``mode_line``, each party's ``settles`` and, in bank mode, ``holds`` and ``line``, each flag's
    ``line``) are the sentences `pan settle` prints."""
    def m(cents: int | None) -> Decimal | None:
        return cents_decimal(cents, s.currency) if cents is not None else None

    def party(p: Party) -> PartyJson:
        row: PartyJson = {"name": p.name, "balance": p.balance, "money": m(p.cents), "net": p.net,
               "bought": p.bought, "cashed_out": p.cashed, "settles": settles(p, s)}
        if s.banked and p.name not in PARTY_NAMES:
            row["holds"], row["line"] = p.balance, arithmetic_line(p, s)
        return row

    data: SettlementJson = {
        "chip_value": s.chip_value, "banked": s.banked, "mode": "bank" if s.banked else "net",
        "mode_line": mode_line(s), "bank_line": bank_line(s),
        "parties": [party(p) for p in s.parties],
        "transfers": [{"payer": t.payer, "payee": t.payee, "chips": t.chips, "money": m(t.cents),
                       "line": transfer_line(t, s)} for t in s.transfers],
        "flags": [{**f, "line": flag_line(f, s)} for f in s.flags], "notes": pool_notes(s), "sum": s.total,
    }
    if s.currency is not None:  # only when the session has one
        data["currency"] = s.currency
    return data
