"""`pan contract …`, `pan polish …` and `pan clock`: the two other games called Pan.

Recording commands write events to the current session through the same recorder as
Panguingue, so `pan undo`, `pan history` and `pan standings` work for them unchanged. The dispute
commands (`check`, `buy`, `deal-sizes`) need no session at all.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator, List, Optional

import typer
from typer.core import TyperCommand

from pancli.cli.params import CountType
from pancli.app.views import board_data
from pancli.cli.common import command_set, console, new_app, print_json
from pancli.core.errors import InputError, RuleError

commands = command_set()  # what this module adds to `pan`

contract_app = new_app("Mendelev's five-deal contract rummy: record contracts, lay-offs and deal scores; "
                       "settle disputed contracts and «May I?» buys.\n\n"
                       'Example: pan contract lay ana "7S 7H 7D + QC QD QS"')
polish_app = new_app("Polish Pan (P-A-N): record each deal's loser, check plays and pickups, deal sizes.\n\n"
                     "Example: pan polish lost ben")

JSON = typer.Option(False, "--json", help="Print JSON for scripts.")


def _rules_option(game: str, default: str, presets: str):
    return (typer.Option(None, "--preset", metavar="PRESET", help=f"House-rules preset: {presets} (default {default})."),
            typer.Option(None, "--rules", metavar="FILE", help=f"House-rules TOML file for the {game} game."))


_C_PRESET, _C_RULES = _rules_option("contract", "mendelev", "mendelev, contract")
_P_PRESET, _P_RULES = _rules_option("Polish Pan", "standard", "standard, piki-cofane, beton, timed")


# -- shared helpers ----------------------------------------------------------------------

def _say(line: str) -> None:
    """One plain line (no rich): a ruling stays on one line when piped, and commands start fast."""
    from pancli.cli.common import echo

    echo(line)


def _recorder(game: str):
    """The current session's recorder, refusing a session of another game."""
    from pancli.cli.context import app_context
    from pancli.games import game as get_game

    recorder = app_context().open_recorder()
    if recorder.session["game"] != game:
        title = get_game(game).title
        raise InputError(f"session '{recorder.session['name']}' is a {recorder.session['game']} game, not {title}",
                         f"start one with `pan session new NAME --game {game} --players A,B,C`, "
                         "or switch with `pan session use NAME`")
    return recorder


def _record(game: str, event: dict):
    from pancli.cli.record import show_step

    step = _recorder(game).record(event)
    show_step(step)
    return step


def _seat_name(seats: list[str], text: str) -> str:
    """A seat by name, case-insensitively, or by a unique prefix."""
    wanted = text.strip().lower()
    exact = [s for s in seats if s.lower() == wanted]
    if exact:
        return exact[0]
    matches = [s for s in seats if wanted and s.lower().startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(f"'{text}' could be {', '.join(matches)}", "type more of the name")
    raise InputError(f"no player '{text}' among the seats", f"seats: {', '.join(seats)}")


def _seats(text: str) -> list[str]:
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if len(seats) < 2:
        raise InputError(f"--seats {text!r} names fewer than two players", "list them in playing order: A,B,C,D")
    if len({s.lower() for s in seats}) < len(seats):
        raise InputError("a player is listed twice in --seats", "list each player once")
    return seats


# == contract rummy =======================================================================

def _contract_codes(text: str) -> list[str]:
    from pancli.games.contract.engine import parse_cards

    return [c.code for c in parse_cards(text)]


def _contract_pending(state) -> str | None:
    """What the table still has to tell pancli about the deal in play."""
    if state.over:
        return None
    if state.out is None:
        return None
    done = {x.player for x in state.leftovers}
    missing = [p for p in state.players if p != state.out and p not in done]
    if missing:
        return f"Still to record: the cards left of {', '.join(missing)} (`pan contract left NAME CARDS`)."
    return None


def _contract_record(event: dict):
    step = _record("contract", event)
    note = _contract_pending(step.state)
    if note:
        _say(note)
    return step


@contract_app.command("lay")
def contract_lay(name: str = typer.Argument(..., help="Who lays down the contract."),
                 melds: List[str] = typer.Argument(..., metavar="MELDS",
                                                   help='The whole contract, melds separated by +: "7S 7H 7D + QC QD QS".')):
    """Lay down a player's contract; it must be exactly the deal's contract, all at once.

    Example: pan contract lay ana "7S 7H 7D + QC QD QS"
    """
    from pancli.games.contract.engine import parse_melds

    who = _recorder("contract").player(name)
    laid = [[c.code for c in m] for m in parse_melds(" ".join(melds))]
    if not laid:
        raise InputError("no melds given", 'write the contract, e.g. "7S 7H 7D + QC QD QS"')
    _contract_record({"kind": "contract", "player": who, "melds": laid})


@contract_app.command("layoff")
def contract_layoff(name: str = typer.Argument(..., help="Who lays off."),
                    meld: int = typer.Argument(..., click_type=CountType("a meld number", 1, 100_000),
                                               help="The meld's number on `pan contract status`."),
                    cards: List[str] = typer.Argument(..., help="The cards laid off.")):
    """Lay off cards onto a meld on the table, one's own or an opponent's.

    Example: pan contract layoff ana 3 8D
    """
    who = _recorder("contract").player(name)
    _contract_record({"kind": "lay_off", "player": who, "meld": meld, "cards": _contract_codes(" ".join(cards))})


@contract_app.command("out")
def contract_out(name: str = typer.Argument(..., help="Who went out."),
                 discard: Optional[str] = typer.Option(None, "--discard", metavar="CARD",
                                                       help="The final discard (deals 1-4 only).")):
    """A player goes out (in deal 5 with no final discard); then record the cards left in the other hands.

    Example: pan contract out ana --discard QH
    """
    from pancli.games.contract.engine import parse_card

    who = _recorder("contract").player(name)
    _contract_record({"kind": "out", "player": who, "discard": parse_card(discard).code if discard else None})


@contract_app.command("left")
def contract_left(name: str = typer.Argument(..., help="Whose hand."),
                  cards: Optional[List[str]] = typer.Argument(None, help="The cards left in the hand."),
                  points: Optional[int] = typer.Option(None, "--points", click_type=CountType("a number of points", 0),
                                                       help="Their value as counted at the table, instead of the cards.")):
    """Record the cards left in a hand after someone went out; the last one scores the deal.

    Example: pan contract left ben KC KD 4S
    """
    who = _recorder("contract").player(name)
    if cards and points is not None:
        raise InputError("give the cards or --points, not both", "e.g. pan contract left ben KC KD 4S")
    if points is not None:
        _contract_record({"kind": "hand", "player": who, "points": points})
        return
    if not cards:
        raise InputError(f"no cards given for {who}", "list the cards, or --points N (--points 0 for none)")
    _contract_record({"kind": "hand", "player": who, "cards": _contract_codes(" ".join(cards))})


def _name_value(recorder, text: str, option: str) -> tuple[str, str]:
    if "=" not in text:
        raise InputError(f"{option} {text!r} has no '='", f'write {option} "NAME=CARDS", e.g. {option} "Ben=KS QH"')
    name, value = text.split("=", 1)
    return recorder.player(name), value.strip()


@contract_app.command("deal")
def contract_deal(
    out: str = typer.Option(..., "--out", metavar="NAME", help="Who went out."),
    left: Optional[List[str]] = typer.Option(None, "--left", metavar="NAME=CARDS",
                                             help='Cards left in a hand ("Ben=KS QH"), or their points ("Ben=24"); '
                                                  "once per other player."),
    contract: Optional[List[str]] = typer.Option(None, "--contract", metavar="NAME=MELDS",
                                                 help='A contract laid this deal, checked ("Ana=7S 7H 7D + QC QD QS").'),
    discard: Optional[str] = typer.Option(None, "--discard", metavar="CARD", help="The goer's final discard."),
):
    """Record a whole finished deal at once: who went out and what every other hand held.

    Example: pan contract deal --out ana --left "Ben=KC KD 4S" --left "Cruz=AS 9H 9D" --left Dee=69
    """
    from pancli.games.contract.engine import parse_card, parse_melds

    recorder = _recorder("contract")
    goer = recorder.player(out)
    hands: dict = {}
    for text in left or []:
        who, value = _name_value(recorder, text, "--left")
        if who in hands:
            raise InputError(f"{who}'s hand is given twice", "give each hand once")
        hands[who] = int(value) if value.isdigit() else " ".join(_contract_codes(value))
    contracts: dict = {}
    for text in contract or []:
        who, value = _name_value(recorder, text, "--contract")
        if who in contracts:
            raise InputError(f"{who}'s contract is given twice", "give each contract once")
        contracts[who] = " + ".join(" ".join(c.code for c in m) for m in parse_melds(value))
    event = {"kind": "deal", "out": goer, "hands": hands}
    if contracts:
        event["contracts"] = contracts
    if discard:
        event["discard"] = parse_card(discard).code
    _contract_record(event)


@contract_app.command("status")
def contract_status(as_json: bool = JSON):
    """The deal in play: its contract, who deals, the numbered melds on the table, and the running totals.

    Example: pan contract status --json
    """
    from pancli.games.contract.engine import summary

    recorder = _recorder("contract")
    data = board_data(recorder)
    if as_json:
        print_json(data)
        return
    if data["over"]:
        _say(summary(recorder.state()))
        return
    _say(f"{data['session']} · deal {data['deal']} of {data['deals']} · contract: {data['contract']} · "
         f"{data['dealer']} deals")
    for m in data["table"]:
        _say(f"  #{m['number']} {m['shown']}  ({m['owner']}'s {m['kind']})")
    if data["down"]:
        _say(f"Contracts down: {', '.join(data['down'])}")
    if data["out"]:
        _say(f"{data['out']} went out; cards left recorded for: {', '.join(data['left']) or 'nobody yet'}")
    _say("Totals: " + ", ".join(f"{r['player']} {r['score']:+d}" for r in data["standings"]))


@contract_app.command("check")
def contract_check(
    melds: List[str] = typer.Argument(..., metavar="MELDS", help='The lay-down, melds separated by +: "7S 7H 7D + QC QD QS".'),
    deal: int = typer.Option(..., "--deal", "-d", click_type=CountType("a deal number", 1, 1000), help="Which deal's contract (1-5)."),
    preset: Optional[str] = _C_PRESET,
    rules_file: Optional[str] = _C_RULES,
    as_json: bool = JSON,
):
    """Is this lay-down exactly the deal's contract? Needs no session.

    Exit status: 0 legal, 1 not legal under the house rules, 2 bad input.

    Example: pan contract check --deal 1 "7S 7H 7D + QC QD QS"
    """
    from pancli.games.contract.engine import classify_meld, describe_contract, parse_melds, validate_contract
    from pancli.app.rulesfile import resolve as resolve_rules

    rules = resolve_rules(preset, rules_file, "contract")
    laid = parse_melds(" ".join(melds))
    if not laid:
        raise InputError("no melds given", 'write the lay-down, e.g. "7S 7H 7D + QC QD QS"')
    verdict = validate_contract(rules, deal, laid)
    data = {"deal": deal, "contract": describe_contract(deal), "legal": verdict.legal, "reason": verdict.reason,
            "melds": [{"cards": [c.code for c in m], "kind": kind, "description": what}
                      for m in laid for kind, what in [classify_meld(m, rules)]]}
    if as_json:
        print_json(data)
    else:
        _say(("Legal: " if verdict.legal else "Not legal: ") + verdict.reason)
    raise typer.Exit(0 if verdict.legal else 1)


@contract_app.command("buy")
def contract_buy(
    discarder: str = typer.Option(..., "--discarder", metavar="NAME", help="Who discarded the card."),
    asker: str = typer.Option(..., "--asker", metavar="NAME", help="Who asks «May I?» to buy it."),
    seats: str = typer.Option(..., "--seats", metavar="A,B,C", help="Every player in playing order."),
    refused_by: Optional[str] = typer.Option(None, "--refused-by", metavar="NAME",
                                             help="The first player asked who said no (everyone before agreed)."),
    cards: int = typer.Option(1, "--cards", click_type=CountType("a number of cards", 0, 1000),
                              help="How many cards off the top of the pack are bought."),
    preset: Optional[str] = _C_PRESET,
    rules_file: Optional[str] = _C_RULES,
    as_json: bool = JSON,
):
    """Rule on buying the discard: who must agree, what the buyer or a refuser takes, who plays next.

    The turn after a buy follows house rule buy_turn: from_buyer (the default, players passed over
    lose their turn) or unchanged (preset contract). Needs no session.
    Exit status: 0 the request stands, 1 it is not allowed, 2 bad input.

    Example: pan contract buy --discarder A --asker D --refused-by C --seats A,B,C,D
    """
    from pancli.games.contract.engine import rule_buy
    from pancli.app.rulesfile import resolve as resolve_rules

    rules = resolve_rules(preset, rules_file, "contract")
    table = _seats(seats)
    d, a = _seat_name(table, discarder), _seat_name(table, asker)
    r = _seat_name(table, refused_by) if refused_by else None
    ruling = rule_buy(rules, table, d, a, r, cards)
    data = {"legal": ruling.legal, "reason": ruling.reason, "permission_from": list(ruling.permission_from),
            "taker": ruling.taker, "pack_cards": ruling.pack_cards, "deck_cards": ruling.deck_cards,
            "cards_gained": ruling.cards_gained, "discards": ruling.discards, "next_player": ruling.next_player,
            "skipped": list(ruling.skipped), "buy_turn": rules.buy_turn}
    if as_json:
        print_json(data)
        raise typer.Exit(0 if ruling.legal else 1)
    _say(("Ruling: " if ruling.legal else "Not allowed: ") + ruling.reason)
    if ruling.legal:
        _say(f"Permission from: {', '.join(ruling.permission_from) or 'nobody'}")
        _say(f"{ruling.taker} takes {ruling.pack_cards} pack + {ruling.deck_cards} deck "
             f"(+{ruling.cards_gained} cards), {'then discards' if ruling.discards else 'discards nothing'}")
        _say(f"Next to play: {ruling.next_player}"
             + (f"  (passed over: {', '.join(ruling.skipped)})" if ruling.skipped else ""))
    raise typer.Exit(0 if ruling.legal else 1)


# == Polish Pan ===========================================================================

@polish_app.command("lost")
def polish_lost(name: str = typer.Argument(..., help="The player left holding cards.")):
    """Record a deal's loser: he takes the next letter; completing P-A-N loses the game.

    Example: pan polish lost ben
    """
    recorder = _recorder("polish")
    _record("polish", {"kind": "deal", "loser": recorder.player(name)})


@polish_app.command("nolose")
def polish_nolose():
    """Record a deal that ended with no loser (the last two went out together): no letter.

    Example: pan polish nolose
    """
    _record("polish", {"kind": "deal", "loser": None})


@polish_app.command("status")
def polish_status(as_json: bool = JSON):
    """Everyone's letters, the deals so far, and who deals next.

    Example: pan polish status
    """
    from pancli.games.polish.engine import summary

    recorder = _recorder("polish")
    data = board_data(recorder)
    if as_json:
        print_json(data)
        return
    _say(summary(recorder.state()))
    if data["next_dealer"]:
        _say(f"{data['next_dealer']} deals next; the holder of the 9♥ opens.")


class _TakeCommand(TyperCommand):
    """Lets ``--take`` take an optional count: ``--take``, ``--take 2`` or ``--take=2``."""

    def parse_args(self, ctx, args):
        out: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg.startswith("--take="):
                out += ["--take", "--take-count", arg.split("=", 1)[1]]
            elif arg == "--take" and i + 1 < len(args) and args[i + 1].lstrip("-").isdigit():
                out += ["--take", "--take-count", args[i + 1]]
                i += 1
            else:
                out.append(arg)
            i += 1
        return super().parse_args(ctx, out)


def _polish_codes(text: str | None):
    from pancli.games.polish.engine import parse_cards

    return parse_cards(text or "")


@polish_app.command("check", cls=_TakeCommand)
def polish_check(
    pile: str = typer.Option("", "--pile", metavar="CARDS", help='The pile from the bottom (9H) to the top; "" for a new deal.'),
    play: Optional[str] = typer.Option(None, "--play", metavar="CARDS", help="The cards played, in the order laid."),
    take: bool = typer.Option(False, "--take", help="Take from the pile instead of playing: --take or --take N."),
    take_count: Optional[int] = typer.Option(None, "--take-count", click_type=CountType("a number of cards", 0, 1000), hidden=True),
    hand: Optional[str] = typer.Option(None, "--hand", metavar="CARDS", help="The mover's hand, to check he holds the play."),
    seats: Optional[str] = typer.Option(None, "--seats", metavar="A,B,C", help="The players clockwise, to say who moves next."),
    mover: Optional[str] = typer.Option(None, "--mover", metavar="NAME", help="Who plays or takes (with --seats)."),
    out: Optional[str] = typer.Option(None, "--out", metavar="A,B", help="Players already out of the deal."),
    preset: Optional[str] = _P_PRESET,
    rules_file: Optional[str] = _P_RULES,
    as_json: bool = JSON,
):
    """Is this play or pickup legal, why, what does a pickup take, and who moves next? Needs no session.

    Exit status: 0 legal, 1 not legal under the house rules, 2 bad input.

    Example: pan polish check --pile "9H 9S TD" --play JC --seats A,B,C --mover B
    """
    from pancli.app.rulesfile import resolve as resolve_rules
    from pancli.games.polish.engine import check_play, check_take, format_cards, next_player, take_choices

    rules = resolve_rules(preset, rules_file, "polish")
    if take_count is not None and not take:
        raise InputError("a count goes with --take", "write --take N")
    if (play is None) == (not take):
        raise InputError("say what the mover does: --play CARDS or --take [N]",
                         'e.g. pan polish check --pile "9H TC" --take')
    cards_on_pile = _polish_codes(pile)
    table = _seats(seats) if seats else None
    who = None
    if mover is not None:
        if table is None:
            raise InputError("--mover needs --seats", "list the players clockwise: --seats A,B,C")
        who = _seat_name(table, mover)
    elif table is not None:
        raise InputError("--seats needs --mover", "say who plays or takes: --mover NAME")
    gone = [_seat_name(table, p) for p in (out or "").split(",") if p.strip()] if table else []
    if out and table is None:
        raise InputError("--out needs --seats and --mover", "list the players clockwise: --seats A,B,C")
    data: dict = {"pile": [c.code for c in cards_on_pile]}
    if play is not None:
        played = _polish_codes(play)
        verdict = check_play(rules, cards_on_pile, played, _polish_codes(hand) if hand is not None else None)
        after = cards_on_pile + played if verdict.legal else cards_on_pile
        data.update(action="play", cards=[c.code for c in played], legal=verdict.legal, reason=verdict.reason,
                    taken=[], choices=[])
    else:
        taking = check_take(rules, cards_on_pile, take_count)
        after = list(taking.pile) if taking.legal else cards_on_pile
        data.update(action="take", cards=[], legal=taking.legal, reason=taking.reason,
                    taken=[c.code for c in taking.taken], choices=take_choices(rules, cards_on_pile))
    data["pile_after"] = [c.code for c in after]
    data["next"] = next_player(rules, table, who, after, gone) if who and data["legal"] else None
    if as_json:
        print_json(data)
        raise typer.Exit(0 if data["legal"] else 1)
    _say(("Legal: " if data["legal"] else "Not legal: ") + data["reason"])
    if data["legal"]:
        _say(f"Pile now: {format_cards(after) or 'empty'}")
        if data["next"]:
            _say(f"Next to move: {data['next']}")
    raise typer.Exit(0 if data["legal"] else 1)


@polish_app.command("deal-sizes")
def polish_deal_sizes(players: int = typer.Argument(..., click_type=CountType("a number of players", 0, 1000), help="How many players (2-6)."),
                      as_json: bool = JSON):
    """How many cards each player gets from the 24-card pack, in dealing order.

    Example: pan polish deal-sizes 5
    """
    from pancli.games.polish.engine import deal_sizes

    sizes = deal_sizes(players)
    if as_json:
        print_json({"players": players, "sizes": sizes})
        return
    _say(f"{players} players: " + ", ".join(str(n) for n in sizes))


# == the chess clock ======================================================================

PASS_KEYS = (" ", "\r", "\n")


def _now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@contextmanager
def _open_keys() -> Iterator[Callable[[float], Optional[str]]]:
    """Single key presses from the terminal: yields ``read(timeout_seconds) -> key or None``."""
    if not sys.stdin.isatty():
        raise InputError("pan clock needs a terminal to read the keys", "run it in a terminal window")
    try:
        import termios
        import tty
    except ImportError:  # Windows
        import msvcrt

        def read_windows(timeout: float) -> Optional[str]:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if msvcrt.kbhit():
                    return msvcrt.getwch()
                time.sleep(0.01)
            return None

        yield read_windows
        return
    import os
    import select

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        def read(timeout: float) -> Optional[str]:
            ready, _, _ = select.select([fd], [], [], timeout)
            return os.read(fd, 1).decode(errors="ignore") if ready else None

        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run_clock(clock, now: Callable[[], int], read_key: Callable[[float], Optional[str]],
              show: Callable = lambda clock, now_ms, out: None, out: set | None = None,
              refresh_s: float = 0.1):
    """Run a chess clock until a flag falls, the deal is decided, or someone quits.

    ``now`` gives the time in milliseconds and ``read_key(timeout)`` waits at most ``timeout``
    seconds for a key: space or enter passes the turn to the next player still in the deal,
    b passes it back (spades back), o marks the player on move as out and passes on, p pauses or
    resumes, q quits. Returns ``(how, clock)`` with how one of "flag", "decided", "quit".
    """
    from pancli.games.polish import clock as ck

    out = out if out is not None else set()
    clock = ck.start(clock, now())
    while True:
        t = now()
        clock = ck.tick(clock, t)
        show(clock, t, out)
        if clock.flagged:
            return "flag", clock
        wait = refresh_s
        if clock.running:
            wait = min(refresh_s, max(0.0, ck.remaining(clock, t)[clock.turn] / 1000))
        key = read_key(wait)
        if key is None:
            continue
        key = key.lower()
        t = now()
        clock = ck.tick(clock, t)
        if clock.flagged:  # the time ran out before the key was pressed
            show(clock, t, out)
            return "flag", clock
        if key == "q":
            return "quit", clock
        if key == "p":
            clock = ck.pause(clock, t) if clock.running else ck.start(clock, t)
            continue
        if key == "o":
            out.add(clock.turn)
        if key in PASS_KEYS or key in ("b", "o"):
            nxt = _next_on_clock(clock.players, clock.turn, out, back=key == "b")
            if nxt is None:
                clock = ck.pause(clock, t) if clock.running else clock
                show(clock, t, out)
                return "decided", clock
            clock = ck.press(clock, t, nxt)


def _next_on_clock(players: tuple[str, ...], mover: str, out: set, back: bool = False) -> str | None:
    active = [p for p in players if p not in out]
    if len(active) < 2:
        return None
    n, seat, step = len(players), players.index(mover), -1 if back else 1
    for i in range(1, n + 1):
        candidate = players[(seat + step * i) % n]
        if candidate not in out:
            return candidate
    return None


def _clock_view(clock, now_ms: int, out: set):
    from rich.table import Table

    from pancli.games.polish.clock import format_ms, remaining

    left = remaining(clock, now_ms)
    state = "paused" if not clock.running and not clock.flagged else ("flag!" if clock.flagged else "running")
    table = Table(title=f"Pan clock · {state} · space/enter: pass · b: back · o: out · p: pause · q: quit",
                  title_justify="left")
    table.add_column("")
    table.add_column("player")
    table.add_column("time", justify="right")
    for p in clock.players:
        mark = "▶" if p == clock.turn else ""
        style = "dim" if p in out else ("bold red" if p == clock.flagged else ("bold" if p == clock.turn else None))
        table.add_row(mark, p + (" (out)" if p in out else ""), format_ms(left[p]), style=style)
    return table


@commands.command("clock")
def clock_command(
    minutes: Optional[float] = typer.Option(None, "--minutes", "-m", min=0.05,
                                            help="Minutes per player (default: house rule clock_minutes, else 5)."),
    increment: int = typer.Option(0, "--increment", "-i", click_type=CountType("a number of seconds", 0, 86_400),
                                  help="Seconds added to a player's time per move."),
    first: Optional[str] = typer.Option(None, "--first", metavar="NAME",
                                        help="Who moves first: the holder of the 9♥ (default: the first seat)."),
):
    """A chess clock for the current Polish Pan deal; a player whose time runs out loses the deal.

    Keys: space or enter passes the turn, b passes it back (spades back), o marks the player on
    move as out, p pauses, q quits. A fallen flag is recorded as a clock_flag event.

    Example: pan clock --minutes 3 --first ana
    """
    from pancli.games.polish import clock as ck

    recorder = _recorder("polish")
    state = recorder.state()
    if state.over:
        raise RuleError(f"the game is over: {state.loser} completed {state.rules.word}",
                        "start a new session to play on")
    total_minutes = minutes if minutes is not None else (state.rules.clock_minutes or 5)
    players = list(state.players)
    clock = ck.new_clock(players, int(round(total_minutes * 60_000)),
                         recorder.player(first) if first else None, increment * 1000)
    gone: set = set()
    con = console()
    with _open_keys() as read_key:
        if con.is_terminal:
            from rich.live import Live

            with Live(_clock_view(clock, 0, gone), console=con, refresh_per_second=10, transient=False) as live:
                how, clock = run_clock(clock, _now_ms, read_key,
                                       lambda c, t, out: live.update(_clock_view(c, t, out)), gone)
        else:
            how, clock = run_clock(clock, _now_ms, read_key, out=gone)
    if how == "flag":
        _say(f"{clock.flagged}'s time has run out.")
        _record("polish", ck.flag_event(clock))
    elif how == "decided":
        holding = [p for p in players if p not in gone]
        _say(f"Deal decided: {holding[0]} is left holding cards; record it with `pan polish lost "
             f"{holding[0]}` (or `pan polish nolose`).")
    else:
        _say("Clock stopped; nothing recorded.")
