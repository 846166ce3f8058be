"""What the table types: a mistyped command or option gets a did-you-mean, and several melds are
written in one grammar by every command that takes them (pancli.core.grouping)."""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import given, strategies as st
from typer.testing import CliRunner

from pancli.cli import app
from pancli.cli.shell.completion import candidates
from pancli.cli.shell.table_shell import TableShell
from pancli.core.grouping import meld_texts, word_pieces, write_melds

from helpers import Pan


def run(db, line: str, input=None):
    return CliRunner().invoke(app, ["--db", str(db), *shlex.split(line)], input=input, prog_name="pan")


# -- did you mean ----------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "said"), [
    ("mled ana 5S 5S 5S", "Error: no command 'mled': did you mean meld? (`pan -h` lists the commands)"),
    ("standigns", "Error: no command 'standigns': did you mean standings?"),
    ("rules shw", "Error: pan rules has no command 'shw': did you mean show? (`pan rules -h` lists the commands)"),
    ("check --ot 5S", "Error: pan check has no option --ot: did you mean --out? (`pan check -h` lists its options)"),
    ("add ana 5S --tto 1", "Error: pan add has no option --tto: did you mean --to?"),
    ("rules show --al", "Error: pan rules show has no option --al: did you mean --all?"),
    ("--dbb x board", "Error: pan has no option --dbb: did you mean --db?"),
    ("zzzzzz", "Error: no command 'zzzzzz' (`pan -h` lists the commands)"),
])
def test_a_mistyped_command_or_option_gets_one_line_with_the_closest_word(tmp_path, line, said):
    r = run(tmp_path / "pan.db", line)
    assert r.exit_code == 2
    assert r.stderr.startswith(said), r.stderr
    assert r.stderr.count("\n") == 1 and "Usage:" not in r.stderr and "Try " not in r.stderr
    assert not (tmp_path / "pan.db").exists()  # nothing was opened, let alone changed


def test_the_table_says_the_same_with_its_own_help_words(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new fri --players Ana,Ben")
    sh = TableShell(db=str(db))
    assert sh.execute("mled ana 5s5s5s").err == \
        "Error: no command 'mled': did you mean meld? (`help` lists the commands)\n"
    assert sh.execute("add ana 5s --tto 1").err == \
        "Error: add has no option --tto: did you mean --to? (`help add` lists its options)\n"
    assert sh.execute("rules shw").err == \
        "Error: rules has no command 'shw': did you mean show? (`help rules` lists the commands)\n"
    assert sh.execute("help mled").err.startswith("Error: no command 'mled': did you mean meld?")


# -- one grammar for a group of melds --------------------------------------------------------

SPELLINGS = [
    "KS KH KD KC / 2D 3D 4D 5D / 5S 5S 5S",
    '"KS KH KD KC | 2D 3D 4D 5D | 5S 5S 5S"',
    '"KS KH KD KC / 2D 3D 4D 5D / 5S 5S 5S"',
    "KS KH KD KC/2D 3D 4D 5D/5S 5S 5S",
    "KS KH KD KC + 2D 3D 4D 5D + 5S 5S 5S",
    '"KS KH KD KC" "|" "2D 3D 4D 5D" / 5S5S5S',
]
LAYOUT = ["KS KH KD KC", "2D 3D 4D 5D", "5S 5S 5S"]


@pytest.mark.parametrize("written", SPELLINGS)
def test_pan_check_out_reads_every_spelling_of_the_grouping(tmp_path, written):
    r = run(tmp_path / "pan.db", f"check --out --json {written}")
    assert r.exit_code == 0, r.output
    assert [" ".join(m["cards"]) for m in json.loads(r.stdout)["melds"]] == LAYOUT


@pytest.mark.parametrize("written", SPELLINGS)
def test_pan_spread_and_the_table_read_the_same_grouping(tmp_path, written):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new fri --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    pan(f"spread ana {written}")
    melds = [" ".join(m["cards"]) for m in pan.json("board")["hand"]["players"][0]["melds"]]
    assert sorted(melds) == sorted(LAYOUT)
    pan("undo")
    sh = TableShell(db=str(db))
    assert sh.execute(f"spread ana {written}").ok
    assert sorted(" ".join(m["cards"]) for m in pan.json("board")["hand"]["players"][0]["melds"]) == sorted(LAYOUT)


@pytest.mark.parametrize("written", ['AD 2D 3D / 4D 5D 6D', '"AD 2D 3D | 4D 5D 6D"', '"AD 2D 3D" "4D 5D 6D"',
                                     'AD 2D 3D | 4D 5D 6D'])
def test_pan_split_reads_the_grouping_and_the_quoted_parts(tmp_path, written):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new fri --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    pan("meld ana AD 2D 3D 4D 5D 6D")
    sh = TableShell(db=str(db))  # `|` unquoted only reaches pan from the table
    r = sh.execute(f"split ana 1 {written}")
    assert r.ok, r.err
    assert [" ".join(m["cards"]) for m in pan.json("board")["hand"]["players"][0]["melds"]] == \
        ["AD 2D 3D", "4D 5D 6D"]


def test_split_of_single_cards_says_to_separate_the_parts(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new fri --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    pan("meld ana AD 2D 3D 4D 5D 6D")
    r = pan("split ana 1 AD 2D 3D 4D 5D 6D", code=2)
    assert "Error: the parts of a split are melds, not single cards: separate them with /, " \
           "e.g. AD 2D 3D / 4D 5D 6D" in r.stderr


def test_pan_out_with_several_melds_points_to_spread(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new fri --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    r = pan("out ben 5H 5H 5H / 6C 6C 6C", code=2)
    assert "pan out takes the final cards of one meld, not 2 melds" in r.stderr
    assert "`pan spread ben`" in r.stderr
    at_the_table = r.stderr.replace("`pan ", "`")  # inside pan table a hint names the shell's command
    assert TableShell(db=str(tmp_path / "pan.db")).execute("o ben 5h5h5h / 6c6c6c").err == at_the_table


@pytest.mark.parametrize("written", ["6H 7H JH / 4C 4C 4C / KS KS KS KS", '"6H 7H JH | 4C 4C 4C | KS KS KS KS"',
                                     "6H 7H JH + 4C 4C 4C + KS KS KS KS"])
def test_pan_turn_reads_the_same_grouping(tmp_path, written):
    r = run(tmp_path / "pan.db", f"turn drawn QH --hand 2C 3C --melds AS 2S 3S --next-flat {written} --json")
    assert r.exit_code == 0, r.output
    assert "6♥ 7♥ J♥" in json.loads(r.stdout)["reason"]


@pytest.mark.parametrize("written", ["7S 7H 7D / QC QD QS", '"7S 7H 7D + QC QD QS"', '"7S 7H 7D | QC QD QS"'])
def test_the_contract_game_reads_the_same_grouping(tmp_path, written):
    r = run(tmp_path / "pan.db", f"contract check --deal 1 {written} --json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["legal"] is True


def test_a_single_meld_with_a_separator_says_what_to_use(tmp_path):
    r = run(tmp_path / "pan.db", "check 5S 5S 5S / 5S")
    assert r.exit_code == 2
    assert r.stderr == ("Error: a single meld has no '/' between its cards: use --arrange or --out to check "
                        "several melds, or --add for an addition\n")


def test_the_grammar_is_documented_once_and_shown_by_every_command_that_takes_melds(tmp_path):
    from pancli.core.grouping import MELDS_HELP

    for line in ("spread", "split", "check", "turn drawn", "contract lay", "contract check"):
        r = CliRunner(env={"COLUMNS": "400"}).invoke(app, [*line.split(), "--help"])
        assert MELDS_HELP in " ".join(r.stdout.split()), line


def test_completion_offers_cards_and_the_separator_for_melds(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new fri --players Ana,Ben --dealer Ben")
    sh = TableShell(db=str(db))
    assert candidates(sh, "spread ana 5")[1] == ["5S", "5H", "5D", "5C"]
    assert "/" in candidates(sh, "spread ana AS 2S 3S ")[1]


@given(st.lists(st.lists(st.sampled_from(["AS", "2S", "5H", "KC", "7D"]), min_size=1, max_size=4),
                min_size=1, max_size=3),
       st.sampled_from([" / ", "/", " | ", "|", " + "]), st.booleans())
def test_any_spelling_groups_to_the_same_melds(melds, sep, quoted):
    text = sep.join(" ".join(m) for m in melds)
    words = [text] if quoted else text.split(" ")
    assert meld_texts(words) == [" ".join(m) for m in melds]
    assert meld_texts([word_pieces(w) for w in words]) == [" ".join(m) for m in melds]
    assert meld_texts([write_melds(melds)]) == [" ".join(m) for m in melds]


def test_bash_completion_offers_the_sessions_players_and_cards(tmp_path):
    """The same ParamTypes complete for bash, zsh and fish (click's shell_complete)."""
    db = tmp_path / "pan.db"
    Pan(db)("session new fri --players Ana,Ben,Cruz --dealer Cruz")

    def complete(words: str) -> list[str]:
        env = {"_PAN_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1),
               "PANCLI_DB": str(db)}
        r = CliRunner(env=env).invoke(app, [], prog_name="pan")
        return r.stdout.split()

    assert complete("pan meld a") == ["Ana"]
    assert complete("pan spread ben 5") == ["5S", "5H", "5D", "5C"]
    assert complete("pan out c") == ["Cruz"]


def shell_completion(db, shell: str, line: str) -> list[str]:
    """What bash, zsh or fish gets for ``line`` through the `_PAN_COMPLETE` protocol (typer's:
    bash sends COMP_WORDS and COMP_CWORD, zsh and fish the line in _TYPER_COMPLETE_ARGS)."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    env = {"_PAN_COMPLETE": f"complete_{shell}", "PANCLI_DB": str(db)}
    if shell == "bash":
        env |= {"COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    else:
        env |= {"_TYPER_COMPLETE_ARGS": line}
    if shell == "fish":
        env |= {"_TYPER_COMPLETE_WORD_TO_COMPLETE": words[-1], "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    r = CliRunner(env=env).invoke(app, [], prog_name="pan")
    if shell == "zsh":  # _arguments '*: :(("Ana"\n"Ben"))'
        return [w.strip('"') for w in r.stdout.split("((", 1)[-1].rsplit("))", 1)[0].split("\n") if w]
    return r.stdout.split()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_shell_completes_the_players_and_cards_of_the_current_session(tmp_path, shell):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new fri --players Ana,Ben,Cruz --dealer Cruz")
    assert shell_completion(db, shell, "pan meld a") == ["Ana"]
    assert shell_completion(db, shell, "pan meld ana 5") == ["5S", "5H", "5D", "5C"]
    assert shell_completion(db, shell, "pan add ana 5S 5") == ["5S", "5H", "5D", "5C"]
    assert shell_completion(db, shell, "pan drop ") == ["Ana", "Ben", "Cruz"]
    # a contract session: its players for the game's own commands, and its 52-card pack
    pan("session new night --game contract --players Dee,Eve,Flo")
    assert shell_completion(db, shell, "pan contract lay d") == ["Dee"]
    assert shell_completion(db, shell, "pan contract lay dee 8") == ["8S", "8H", "8D", "8C"]
    assert shell_completion(db, shell, "pan contract lay dee 1") == ["10S", "10H", "10D", "10C"]
    assert shell_completion(db, shell, "pan contract deal --out ") == ["Dee", "Eve", "Flo"]
    assert shell_completion(db, shell, "pan polish lost e") == ["Eve"]
    # `pan player` takes a player of any session
    assert shell_completion(db, shell, "pan player ") == ["Ana", "Ben", "Cruz", "Dee", "Eve", "Flo"]
    assert shell_completion(db, shell, "pan player c") == ["Cruz"]


def test_tab_after_a_rank_offers_its_suits_in_the_pack_of_the_commands_game(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new fri --players Ana,Ben --dealer Ben")
    sh = TableShell(db=str(db))
    assert candidates(sh, "m ana 5") == ("5", ["5S", "5H", "5D", "5C"])
    assert candidates(sh, "m ana 5S 5s 5")[1] == ["5S", "5H", "5D", "5C"]
    assert candidates(sh, "a ana k")[1] == ["kS", "kH", "kD", "kC"]
    assert len(candidates(sh, "m ana ")[1]) == 40  # no rank yet: the whole Pan pack
    assert candidates(sh, "m ana 8")[1] == []  # the Pan pack has no 8
    assert candidates(sh, "contract lay ana 8")[1] == ["8S", "8H", "8D", "8C"]
    assert candidates(sh, "contract lay ana t")[1] == ["tS", "tH", "tD", "tC"]
    assert len(candidates(sh, "contract lay ana ")[1]) == 52 + 1  # and the separator between melds
