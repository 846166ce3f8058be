"""What a sync found besides the sessions it moved, in words: `pan sync` and `pan sync --watch`
say it the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pancli.cli.output import console, output_width
from pancli.core.i18n import _, ngettext
from pancli.core.names import inert
from pancli.core.text import wrap_words

if TYPE_CHECKING:
    from pancli.app.sync.outcome import Outcome


def print_findings(out: Outcome) -> None:
    """What a sync found besides the sessions it moved (files not complete, keys pinned, refusals,
    errors, the roster, conflicts), as `pan sync` says it; `pan sync --watch` says them the same way."""
    def say(text: str) -> None:
        typer.echo(inert(text))

    for f in out.incomplete:
        # Translators: {why} comes from the sync code, already in the language in force
        say(_("Not complete yet, read again next time: {file} ({why}).").format(file=f["file"], why=f["why"]))
    for p in out.pinned:
        say(_("First sight of {device} ({id}): its key {key} is now pinned.").format(
            device=p["label"], id=p["device"][:8], key=p["fingerprint"]))
    for f in out.refused:
        if f.get("device"):
            text = _("Refused {file} (it claims {device}, {id}): {why}.")
        else:
            text = _("Refused {file}: {why}.")
        say(text.format(file=f["file"], device=f.get("device_label"), id=(f.get("device") or "")[:8], why=f["why"]))
    for e in out.errors:
        say(_("Could not use {path}: {why}.").format(path=e["path"], why=e["why"]))
    if out.club is not None:
        if out.club["new"]:
            n = out.club["new"]
            say(ngettext("The club's roster: {n} new entry read.", "The club's roster: {n} new entries read.",
                         n).format(n=n))
        for text in out.club["conflicts"]:
            say(text)
        if out.club["pending"]:
            n = out.club["pending"]
            say(ngettext("{n} roster entry waits for entries it follows (sync again later).",
                         "{n} roster entries wait for entries they follow (sync again later).", n).format(n=n))
    width = (output_width() or console().width) if out.conflicts else 0  # rich loads only to lay them out
    for c in out.conflicts:
        head, *more = c["text"]
        for line in [head, *("  " + x for x in more)]:
            for part in wrap_words(inert(line), width):
                typer.echo(part)
