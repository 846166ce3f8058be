"""Each game declares its actions once (pancli/games/actions.py): the recording commands, the shell's
fast path, `pan --help`'s table of commands and the payload declaration are held to it here."""

from __future__ import annotations

import itertools

import pytest

from pancli.cli.direct import direct_commands
from pancli.cli.registry import COMMAND_MODULES, PANELS, app
from pancli.core.errors import InputError
from pancli.core.payloads import BANK_PAYLOADS
from pancli.games import GAMES, default_game
from pancli.games.actions import (
    CARD,
    CARD_EACH,
    CARDS,
    COUNT,
    FLAG,
    IN_HAND,
    KINDS,
    MELD,
    MELDS,
    NEW_NAME,
    PLAYER,
    Action,
    Param,
    read_count,
    read_meld_number,
)

# Options a command has for people only, recording nothing of their own.
CLI_ONLY = {("split",): {"into"}}


def every_action():
    return [(g, a) for g in list(GAMES.values()) for a in g.actions]


def ids(ga):
    return f"{ga[0].name}-{ga[1].name}"


def command_of(words):
    import typer

    root = typer.main.get_command(app)
    cmd = root
    for w in words:
        cmd = cmd.get_command(None, w)
        assert cmd is not None, f"no command `pan {' '.join(words)}`"
    return cmd


@pytest.mark.parametrize("ga", every_action(), ids=ids)
def test_the_command_is_the_declaration(ga):
    g, a = ga
    cmd = command_of(a.command)
    assert (cmd.help or "").split("\n\n")[0].replace("\n", " ").strip() == a.help
    params = {p.name: p for p in cmd.params}
    seen = set()
    for p in a.params:
        assert p.arg in params, f"`pan {' '.join(a.command)}` has no parameter {p.arg} for {p.name}"
        if p.arg in seen:  # one word of the command line that holds two of the declaration's (borrow --from)
            continue
        seen.add(p.arg)
        given = params[p.arg]
        assert getattr(given, "help", None) == p.help, (p.name, getattr(given, "help", None))
        if p.option:
            assert p.option in given.opts
        else:
            assert given.param_type_name == "argument"
            assert given.required == p.required
    extra = set(params) - seen - {"as_json"} - CLI_ONLY.get(a.command, set())
    assert not extra, f"`pan {' '.join(a.command)}` takes {sorted(extra)}, which its declaration does not"


def sample(p: Param):
    one = {PLAYER: "Ana", IN_HAND: "Ana", NEW_NAME: "Eve", CARDS: ["5S", "5S", "5S"], CARD: "QH",
           MELDS: [["AD", "2D", "3D"], ["4D", "5D", "6D"]], MELD: 1, COUNT: max(p.low, 1), FLAG: True,
           CARD_EACH: {"Ana": "KS", "Ben": "2H"}}[p.kind]
    return [one] if p.many and p.kind in (PLAYER, IN_HAND) else one


@pytest.mark.parametrize("ga", every_action(), ids=ids)
def test_the_events_it_builds_are_the_declared_payloads(ga):
    g, a = ga
    payloads = g.payloads | BANK_PAYLOADS
    assert set(a.kinds) <= set(payloads.kinds), f"{a.name} records kinds its game does not declare"
    required = {p.name: sample(p) for p in a.params if p.required}
    optional = [p for p in a.params if not p.required]
    built = []
    for n in range(len(optional) + 1):
        for chosen in itertools.combinations(optional, n):
            try:
                built += a.build({**required, **{p.name: sample(p) for p in chosen}})
            except InputError:
                continue  # a choice the action refuses (the cards and the points of a hand)
    assert built, f"{a.name} builds no event from any choice of its parameters"
    for event in built:
        assert event["kind"] in a.kinds
        assert set(event) - {"kind"} <= set(payloads.kinds[event["kind"]]), event
        assert payloads.problem(event) is None, (event, payloads.problem(event))


def test_the_shells_fast_path_and_the_help_panels_are_the_declarations():
    """The fast path is made from the declarations; `pan`'s table of commands (which must not load
    the games to start) is held to them."""
    own = [a for a in default_game().actions]
    assert direct_commands() == {"deal", "drop", "stay", "meld", "add", "split", "spread", "out", "foul", "dead",
                                 "void", "chop", "undo"}  # the shell's fast path of 0.2, made from them now
    in_panels = {n for _, names in PANELS for n in names}
    for a in own:
        assert a.command[0] in COMMAND_MODULES and a.command[0] in in_panels, a.command


def test_every_parameter_kind_is_read_and_refused_in_one_line():
    assert set(KINDS) == {PLAYER, IN_HAND, NEW_NAME, CARDS, CARD, MELDS, MELD, COUNT, FLAG, CARD_EACH}
    assert read_count("12", "a number of chips") == 12
    with pytest.raises(InputError, match="-3 is not a number of chips"):
        read_count("-3", "a number of chips")
    with pytest.raises(InputError, match="--to takes a meld number, not 'x'"):
        read_meld_number("x", "--to")
    with pytest.raises(ValueError):
        Param("p", "no such kind", "")


def test_the_dealer_faces_follow_the_parameters():
    faces = {(g.name, a.name): a.face() for g, a in every_action()}
    assert faces[("panguingue", "stay")] == "seat" and faces[("panguingue", "meld")] == "picker"
    assert faces[("panguingue", "deal")] == "button" and faces[("panguingue", "borrow")] == "form"
    assert faces[("contract", "out")] == "picker" and faces[("contract", "left")] == "picker"
    assert faces[("polish", "lost")] == "seat" and faces[("polish", "nolose")] == "button"
    assert isinstance(Action("x", ("x",), "", "", (), lambda v: [], ()).describe()["params"], list)
