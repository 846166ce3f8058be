"""The night's score sheet as one HTML file (`pan report --html`): the page the settle-up page
prints, with its styles written in, so it opens and prints from the disk with no server."""

from __future__ import annotations

from typing import Any

from pancli.core.i18n import _
from pancli.web.filters import HERE, templates


def sheet_html(sheet: dict[str, Any], game_title: str) -> str:
    style = "\n".join((HERE / "static" / name).read_text(encoding="utf-8") for name in ("pan.css", "sheet.css"))
    return templates().get_template("sheet.html").render(
        title=_("{session} · score sheet").format(session=sheet["session"]), fragment=False, live="none",
        generation=0, session=None, follow=False, keepalive=0, url=lambda to, **kw: "#", path="/sheet", sheet=sheet, settle=sheet["settle"],
        game_title=game_title, style=style)
