"""House-rules files (TOML), read and written for every game in this one place.

A rules file holds knobs of one game, optionally ``preset = NAME`` first; knobs it leaves out take
the preset's value (the game's default preset when it names none). The game modules only check
dicts (pancli.core.knobs); this module adds the file: every refusal names the file, the key and
what is allowed, on one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.games import DEFAULT_GAME, GAMES, game as get_game

if TYPE_CHECKING:
    from pancli.core.knobs import KnobRules, Schema


def schema(game: str = DEFAULT_GAME) -> Schema[Any]:
    """The knob schema of a game, by name (a did-you-mean for an unknown one)."""
    return get_game(game).schema


# A rules file `pan rules init` writes is about 3 KB; anything past this is not a house's rules.
MAX_RULES_BYTES = 256 * 1024


def load(path: str | Path, game: str = DEFAULT_GAME) -> Any:
    """The rules a file sets for ``game``."""
    import tomllib  # noqa: PLC0415 start-up: only a command given a rules file reads one

    s = schema(game)
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_RULES_BYTES + 1)
        if len(raw) > MAX_RULES_BYTES:
            raise InputError(_("rules file {path} is over {kb} KB, far more than any house's rules").format(
                                 path=p, kb=MAX_RULES_BYTES // 1024),
                             _("pass the rules file `pan rules init` writes"))
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise InputError(_("rules file {path} does not exist").format(path=p),
                         # Translators: {game_option} is empty or an option such as " --game contract"
                         _("check the path, or write one with `pan rules init FILE{game_option}`").format(
                             game_option=s.game_option())) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(_("cannot read rules file {path}").format(path=p), str(e)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(_("{path} is not valid TOML ({error})").format(path=p, error=e), _("fix the line it names")) from None
    except RecursionError:  # tomllib recurses once per bracket: a file nested thousands deep
        raise InputError(_("{path} nests its tables or lists too deeply to be a rules file").format(path=p),
                         _("a rules file holds one [table] of knobs; write one with `pan rules init FILE`")) from None
    try:
        return s.from_dict(data, where=f"{p}: ")
    except InputError as e:
        other = _other_game(data, s.game)
        if other is None:
            raise
        raise InputError(e.message, _("this is a rules file of {game}: give --game {name}").format(
            game=_(other.title), name=other.game)) from None


def _other_game(data: dict[str, Any], game: str) -> Schema[Any] | None:
    """The one other game whose rules ``data`` are, if there is exactly one."""
    fits = []
    for name, g in GAMES.items():
        if name == game:
            continue
        try:
            g.schema.from_dict(data)
        except InputError:
            continue
        fits.append(g.schema)
    return fits[0] if len(fits) == 1 else None


def dumps(rules: KnobRules, preset_name: str | None = None, game: str = DEFAULT_GAME) -> str:
    """A complete rules file: every knob written out, with its help and allowed values as a comment."""
    import tomli_w  # noqa: PLC0415 start-up: only `pan rules init` writes a rules file

    s = schema(game)
    if s.at_top:  # the house rules of the game of `pan`'s own commands
        lines = ["# pancli house rules. Every knob is listed; `pan rules show` explains them.\n"]
    else:
        lines = [f"# pancli house rules for {s.title}. Every knob is listed; "
                 f"`pan rules show{s.game_option()}` explains them.\n"]
    if preset_name:
        lines.append(f"# Written from the '{preset_name}' preset.\n")
    for name, value in s.to_dict(rules).items():
        k = s.knobs[name]
        lines.append(f"# {k.help}{k.choices_text()}\n")
        lines.append(tomli_w.dumps({name: value}))
    return "".join(lines)


def write(path: str | Path, rules: KnobRules, preset_name: str | None = None, game: str = DEFAULT_GAME,
          force: bool = False, db_path: str | Path | None = None) -> Path:
    """Write a complete rules file; refuse to overwrite one unless ``force``, and never the database."""
    from pancli.app.files import check_target, write_atomic  # noqa: PLC0415 start-up: hashlib, only `pan rules init` writes

    p = check_target(path, force, db_path, "rules file")
    return write_atomic(p, dumps(rules, preset_name, game))


def resolve(preset_name: str | None = None, rules_file: str | Path | None = None,
            game: str = DEFAULT_GAME) -> Any:
    """The rules a command runs under: a rules file, else a preset, else the game's default preset."""
    if preset_name and rules_file:
        raise InputError(_("give --preset or --rules, not both"), _("a rules file can name its preset itself"))
    if rules_file:
        return load(rules_file, game)
    s = schema(game)
    return s.preset(preset_name or s.default_preset)
