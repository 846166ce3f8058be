"""The command line's words for the games' hints (pancli/core/hints.py): here, and only here, a
hint names `pan`'s commands and options. Each sentence is the one `pan` has always printed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pancli.core.hints import CLI, Wording, add_words
from pancli.core.i18n import N_, _, ngettext, sentence

# What a shell would not take as part of one word: a name holding it is shown quoted.
_SHELL_SPECIAL = re.compile(r"""[\s'"\\$`!*?&;|<>(){}\[\]#~]""")


def _typed(name: str) -> str:
    """A player's name as it is typed in a command: "'anna k.'", so that `pan out 'anna k.' …` can
    be typed as shown ("ana" as it is)."""
    if not _SHELL_SPECIAL.search(name):
        return name
    return "'" + name.replace("'", "'\\''") + "'"


def _command(msgid: str, name: str) -> Wording:
    """A sentence showing a `pan` command with a player's name (the parameter ``name``) in it."""
    return lambda p: sentence(_(msgid), **{**p, name: _typed(p[name])})


def _undo_back(p: Mapping[str, Any]) -> str:
    return ngettext("`pan undo` takes back the last event first: the drop is {n} undos back (see `pan history`)",
                    "`pan undo` takes back the last event first: the drop is {n} undos back (see `pan history`)",
                    p["n"]).format(n=p["n"])


def _out_more(p: Mapping[str, Any]) -> str:
    return ngettext("{n} more: record their other melds first (`pan meld`, `pan add`), then go out with the last cards",
                    "{n} more: record their other melds first (`pan meld`, `pan add`), then go out with the last cards",
                    p["n"]).format(n=p["n"])


def _one_meld(p: Mapping[str, Any]) -> str:
    return ngettext("pan out takes the final cards of one meld, not {n} melds",
                    "pan out takes the final cards of one meld, not {n} melds", p["n"]).format(n=p["n"])


WORDS: dict[str, Wording] = {
    # Panguingue
    "players.list": N_("list them with --players Ana,Ben,Cruz"),
    "between.seat": N_("seat players between hands: finish the hand first (or `pan undo` the deal)"),
    "between.leave": N_("players leave between hands: finish the hand first (or `pan undo` the deal)"),
    "between.deal": N_("deal the next hand between hands: finish the hand first (or `pan undo` the deal)"),
    "seats.list": N_("see the seats with `pan session show`"),
    "deal.first": N_("start one with `pan deal`"),
    "deal.next": N_("start the next with `pan deal`"),
    "deal.next_line": N_("Next hand: {dealer} deals, {eldest} is eldest; type `deal` to start it."),
    "drop.undo": N_("if the drop was a mistake, `pan undo` takes it back"),
    "drop.undo_back": _undo_back,
    "add.cards": N_("name the cards, e.g. `pan add Ana 5S`"),
    "add.which": N_("say which with --to, e.g. --to {number}"),
    "meld.new": N_("lay a new meld with `pan meld`"),
    "meld.numbers": N_("see the numbers with `pan board`"),
    "split.parts": N_('e.g. --into "AD 2D 3D" "4D 5D 6D"'),
    "split.add_first": N_("a split divides one meld; add cards from the hand with `pan add` first"),
    "borrow.from": N_("say which meld lends the cards with --from N"),
    "borrow.example": N_("e.g. pan borrow ana --from 1 KH --with KD KC"),
    "borrow.cards": N_("e.g. `pan borrow Ana --from 2 7C --with 7H 7D`"),
    "borrow.with": N_("name them with --with, or rearrange meld {number} with `pan split` (the split rules apply)"),
    "spread.example": N_('e.g. `pan spread Ana "AS 2S 3S | 5S 5S 5S"`'),
    "out.one_meld": _one_meld,
    "out.spread": _command(N_("name the whole layout with `pan spread {player}`: the melds already down and these, "
                     "separated by /"), "player"),
    "out.spread_all": _command(N_("lay the whole hand at once with `pan spread {name} CARDS / CARDS / CARDS`"), "name"),
    "out.more": _out_more,
    "out.final": _command(N_("name the final cards: `pan out {name} CARD...`"), "name"),
    "void.now": N_("No live hand is left: record `pan void` to end the hand."),
    "foul.which": N_("say which meld is foul with --meld N, or --after-discard"),
    "help.board_number": N_("The meld's number on `pan board`."),
    "help.add_to": N_("Number of the meld on `pan board` (needed only if several fit)."),
    "help.borrow_from": N_("The meld that lends (its number on `pan board`) and the cards it lends."),
    # the contract game
    "left.both": N_("give the cards or --points, not both"),
    "left.example": N_("e.g. pan contract left ben KC KD 4S"),
    "left.none": N_("list the cards, or --points N (--points 0 for none)"),
    "left.still": N_("Still to record: the cards left of {players} (`pan contract left NAME CARDS`)."),
    "help.contract_meld": N_("The meld's number on `pan contract status`."),
    "each.no_equals": N_("{option} {text} has no '='"),  # `pan contract deal --left Ben`
    "each.write": N_('write {option} "NAME=CARDS", e.g. {option} "Ben=KS QH"'),
    # any game
    "cards.none": N_("see `pan {name} --help`"),
    "session.closed": N_("start a new one with `pan session new`"),
    "session.other_device": N_("record on that device; `pan sync` brings its events here"),
}

add_words(CLI, WORDS)
