"""Each game declares its actions once (pancli/games/actions.py): the recording commands and the
shell's fast path are made from it; the bank's commands (written by hand), `pan --help`'s table of
commands (which must not load the games to start) and the payload declaration are held to it here."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from pancli.cli.registry import app, module_of, own_panels
from pancli.cli.shell.direct import direct_commands
from pancli.core.errors import InputError
from pancli.core.payloads import BANK_PAYLOADS
from pancli.games import GAMES, default_game
from pancli.games.actions import (
    BANK_ACTIONS,
    CARD,
    CARD_EACH,
    CARDS,
    COUNT,
    FLAG,
    HAND_EACH,
    IN_HAND,
    KINDS,
    MELD,
    MELDS,
    MELDS_EACH,
    NEW_NAME,
    PLAYER,
    Action,
    Param,
    by_name,
    read_count,
    read_meld_number,
)


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
def test_each_declared_action_is_a_command_with_its_parameters(ga):
    """The commands are made from the declarations (cli/action_commands.py), the bank's too: each
    declaration is a command, holding a parameter for each of its own and the command line's, and
    no other. The clock's command runs the clock: its options are the clock's
    (cli/commands/other_games/clock.py), and what it records when a flag falls is its declaration's."""
    g, a = ga
    cmd = command_of(a.command)
    assert (cmd.help or "").split("\n\n")[0].replace("\n", " ").strip() == a.help
    if (g.name, a.name) == ("polish", "clock"):
        assert {p.name for p in cmd.params} == {"minutes", "increment", "first"}
        return
    params = {p.name: p for p in cmd.params}
    declared: dict[str, Param] = {}
    for p in (*a.params, *a.extra):
        declared.setdefault(p.arg, p)  # one word of the command line may hold two (borrow's --from)
    assert set(params) == set(declared), (sorted(params), sorted(declared))
    for arg, p in declared.items():
        given = params[arg]
        if p.option:
            assert p.option in given.opts and (not p.short or p.short in given.opts)
        else:
            assert given.param_type_name == "argument"
            assert given.required == p.required
            assert (given.nargs == -1) == p.many
        if a in BANK_ACTIONS:  # written by hand until 0.3: its words as they were
            assert given.help == p.help, (p.name, given.help)


def test_a_commands_help_is_its_declarations():
    """The help, the further paragraph and the example, as typer would read a docstring."""
    out = by_name(default_game().actions)["out"]
    help_text = command_of(("out",)).help
    assert help_text == out.command_help() and help_text.startswith(out.help + "\n\n" + out.more + "\n\n")
    assert help_text.endswith("\n\nExample: pan out ana 4H 4D 4C")
    assert by_name(default_game().actions)["void"].command_help() == \
        "End the hand with no winner (stock exhausted under void_hand, or a misdeal): the tops go back.\n\n" \
        "Example: pan void"
    borrow = command_of(("borrow",))
    assert borrow.multiword_options == ("--from", "-f", "--with", "-w")  # the declared many-word options


def sample(p: Param):
    one = {PLAYER: "Ana", IN_HAND: "Ana", NEW_NAME: "Eve", CARDS: ["5S", "5S", "5S"], CARD: "QH",
           MELDS: [["AD", "2D", "3D"], ["4D", "5D", "6D"]], MELD: 1, COUNT: max(p.low, 1), FLAG: True,
           CARD_EACH: {"Ana": "KS", "Ben": "2H"}, HAND_EACH: {"Ben": "KC KD", "Cruz": 24},
           MELDS_EACH: {"Ana": "7S 7H 7D + QC QD QS"}}[p.kind]
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
    in_panels = {n for _, names in own_panels() for n in names}
    for a in own:
        assert module_of(a.command[0]) is not None and a.command[0] in in_panels, a.command


def test_every_parameter_kind_is_read_and_refused_in_one_line():
    assert set(KINDS) == {PLAYER, IN_HAND, NEW_NAME, CARDS, CARD, MELDS, MELD, COUNT, FLAG, CARD_EACH, HAND_EACH,
                          MELDS_EACH}
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


# -- the generation itself, for any declaration -----------------------------------------------

WORD = {PLAYER: "ana", NEW_NAME: "Eve", CARDS: "5S", COUNT: "7"}


@st.composite
def declarations(draw):
    """An action of a game's group: required single arguments, then perhaps one of many words,
    then options of any of these kinds."""
    kinds = st.sampled_from([PLAYER, NEW_NAME, CARDS, COUNT])
    params = [Param(f"a{i}", draw(kinds), f"Argument {i}.") for i in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        params.append(Param("many", draw(kinds), "Many words.", many=True, required=draw(st.booleans())))
    for i in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from([PLAYER, NEW_NAME, CARDS, COUNT, FLAG]))
        params.append(Param(f"o{i}", kind, f"Option {i}.", required=False, option=f"--opt-{i}",
                            metavar=draw(st.sampled_from(["", "THING"])) if kind != FLAG else ""))
    return Action("verb", ("toy", "verb"), "Do the verb.", "Verb", tuple(params), lambda v: [], (),
                  example="pan toy verb")


@settings(max_examples=60, deadline=None)
@given(declarations(), st.data())
def test_any_declaration_makes_its_command(action, data):
    """Each parameter is an argument or an option of the command, as declared, and the words typed
    reach the action by the parameters' names."""
    import typer
    from typer.testing import CliRunner

    from pancli.cli.action_commands import add_commands
    from pancli.cli.groups import new_app

    group = new_app("Toy.")
    group.callback()(lambda: None)
    seen: list[dict] = []
    add_commands({("toy",): group}, [action], lambda a, words: seen.append(words), at_top=False)
    cmd = typer.main.get_command(group).get_command(None, "verb")
    assert cmd.help == "Do the verb.\n\nExample: pan toy verb"
    made_params = {p.name: p for p in cmd.params}
    assert list(made_params) == [p.arg for p in action.params]
    line: list[str] = []
    for p in action.params:
        made = made_params[p.name]
        assert made.help == p.help and (made.metavar or "") == p.metavar
        if p.option:
            assert made.opts == [p.option] and not made.required
            if data.draw(st.booleans(), label=p.name):
                line += [p.option] if p.kind == FLAG else [p.option, WORD[p.kind]]
        else:
            assert made.param_type_name == "argument" and made.required == p.required
            assert made.nargs == (-1 if p.many else 1)
            line += [WORD[p.kind]] * (2 if p.many else 1)
    result = CliRunner().invoke(group, ["verb", *line])
    assert result.exit_code == 0, result.output
    assert len(seen) == 1 and set(seen[0]) == {p.name for p in action.params}
    for p in action.params:
        if not p.option:
            expected = [WORD[p.kind]] * 2 if p.many else WORD[p.kind]
            value = seen[0][p.name]
            assert (list(value) if p.many else value) == ([int(w) for w in expected] if p.kind == COUNT and p.many
                                                          else int(expected) if p.kind == COUNT else expected)
