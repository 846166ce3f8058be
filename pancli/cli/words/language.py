"""Which language `pan` speaks: ``--lang``, then ``PANCLI_LANG``, then the locale's variables
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""

from __future__ import annotations

import os

from pancli.core.errors import InputError
from pancli.core.i18n import _, language_code
from pancli.storage import catalogs


def speak(flag: str | None) -> str:
    """Put the chosen language in force for this command; an unknown ``--lang`` is one line."""
    if flag is None and not any(os.environ.get(v) for v in ("PANCLI_LANG", "LANGUAGE", "LC_ALL",
                                                             "LC_MESSAGES", "LANG")):
        catalogs.use_language("en")  # the usual case reads no folder
        return "en"
    for given, where in ((flag, "--lang"), (os.environ.get("PANCLI_LANG"), "PANCLI_LANG")):
        if given:
            known = catalogs.available()
            if language_code(given, known) is None:
                raise InputError(_("{where} {given} is not a language pancli speaks").format(
                    where=where, given=given[:20]),
                    _("give one of {languages}").format(languages=", ".join(known)))
            break
    code = catalogs.chosen_language(flag)
    catalogs.use_language(code)
    if code != "en":
        from pancli.cli.words.framework import speak_framework  # noqa: PLC0415 click's words: only in a language other than English

        speak_framework()  # typer's and click's own words too
    return code


def speak_from_argv(argv: list[str]) -> None:
    """The language of a whole process, read before click parses anything (`pan --help --lang pl`
    and `PANCLI_LANG=pl pan --help` are in Polish too); a bad value is left for ``--lang`` to refuse."""
    flag = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            flag = argv[i + 1]
        elif arg.startswith("--lang="):
            flag = arg[len("--lang="):]
    try:
        speak(flag)
    except InputError:
        catalogs.use_language("en")  # refused in English, by --lang itself
