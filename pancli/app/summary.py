"""The night in a few lines to paste into a group chat (`pan report --text`, the Copy button of
the phone's settle-up page): its name, game and date, the winner, each player's result in the
game's own terms (money in the session's currency when a chip is worth money, else chips;
points in the contract game, letters in Polish Pan), the game's own result where it has one,
and who pays whom where chips change hands. Each line fits ``WIDTH`` cells; a name always comes
where no language declines it (after a colon, or beside an arrow).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import _, ngettext
from pancli.core.numbers import date_text, money_text
from pancli.core.settle import party_name, signed_chips
from pancli.core.text import wrap_words
from pancli.core.words import signed
from pancli.games import GAMES

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pancli.app.view_types import SettleJson, StandingsJson
    from pancli.core.rows import Session
    from pancli.storage.store import Store

WIDTH = 80  # a chat's line on a phone wraps anyway; a terminal's and an e-mail's do not


def night_summary(store: Store, session: Session) -> list[str]:
    """The summary of ``session`` as `pan report --text` prints it, read from the store."""
    from pancli.app.recorder import Recorder  # noqa: PLC0415 start-up: only the summary reads all of these
    from pancli.app.reports import sheet_grid  # noqa: PLC0415
    from pancli.app.views import board_data, settle_json, settle_result, standings_data  # noqa: PLC0415

    recorder = Recorder(store, session)
    standings = standings_data(recorder)
    settled = settle_json(session, settle_result(store, session)[0])
    g = GAMES.get(session.game)
    if g is None or g.in_chips:
        return summary_lines(session, standings, settled)
    over = board_data(recorder).get("over")
    return summary_lines(session, standings, settled, sheet_grid(store, session).get("result"),
                         over=None if over is None else bool(over))


def money_said(x: Decimal | float | str, currency: str | None) -> str:
    """Money won or lost with its sign and its currency: ``+$20.25``, ``-10,75 zł``."""
    d = Decimal(str(x))
    return ("+" if d > 0 else "") + money_text(d, currency)


def result_said(row: Mapping[str, Any], chip_value: object, currency: str | None) -> str:
    """A player's result in the game's own terms."""
    if "word" in row:  # letters: Polish Pan
        word = row["word"] or ""
        if not word:
            return _("no letters")
        n = len(word)
        # Translators: {word} is the letters a player holds in Polish Pan (PA); {n} how many
        return ngettext("{word} ({n} letter)", "{word} ({n} letters)", n).format(word=word, n=n)
    if "points" in row and "place" in row:  # points: the contract game
        n = int(row["points"])
        return ngettext("{points} point", "{points} points", abs(n)).format(points=signed(n))
    chips = signed_chips(int(row["net"]))
    if chip_value and row.get("money") is not None:
        return _("{money} ({chips})").format(money=money_said(row["money"], currency), chips=chips)
    return chips


def winners_of(standings: StandingsJson) -> list[str]:
    """Who won the night: the first place of a game that ranks its own standings (unless everyone
    shares it: nothing was played), else the most chips won, when anyone won any."""
    rows = standings["players"]
    if not rows:
        return []
    if "columns" in standings:
        first = [r["name"] for r in rows if r.get("place") == 1]
        return first if len(first) < len(rows) else []
    best = max(int(r["net"]) for r in rows)
    return [r["name"] for r in rows if int(r["net"]) == best] if best > 0 else []


def summary_lines(session: Session, standings: StandingsJson, settled: SettleJson | None,
                  result: str | None = None, over: bool | None = None, width: int = WIDTH) -> list[str]:
    """The summary from what the standings and the settle-up already say (pure). ``result``: the
    game's own words for how it ended or where it stands; ``over``: whether a game that ends by
    itself (the contract game, Polish Pan) has ended, so that its first place is its winner and
    not only the one leading."""
    g = GAMES.get(session.game)
    title = _(g.title) if g is not None else session.game
    currency = standings.get("currency")
    chip_value = standings.get("chip_value")
    lines = [_("{session} · {game} · {date}").format(session=session.name, game=title,
                                                      date=date_text(session.created_at))]
    winners = winners_of(standings)
    if winners and over is False:
        # Translators: the chat summary of a game still being played (a name after the colon)
        lines.append(ngettext("Leading: {players}", "Leading: {players}", len(winners)).format(
            players=", ".join(winners)))
    elif winners:
        # Translators: the chat summary (a name after the colon)
        lines.append(ngettext("Winner: {players}", "Winners: {players}", len(winners)).format(
            players=", ".join(winners)))
    if result:
        lines.append(result)
    for row in standings["players"]:
        # Translators: a player's result in the chat summary: "Ana: +$20.25 (+81 chips)", "Ben: +12 points"
        lines.append(_("{player}: {result}").format(player=row["name"], result=result_said(row, chip_value, currency)))
    in_chips = g is None or g.in_chips
    transfers = settled["transfers"] if settled is not None else []
    if transfers:
        lines.append(_("Who pays whom:"))
        for t in transfers:
            paid = (money_text(Decimal(str(t["money"])), currency) if t.get("money") is not None
                    else ngettext("{chips} chip", "{chips} chips", int(t["chips"])).format(chips=t["chips"]))
            # Translators: a payment of the chat summary, an arrow from who pays to who is paid: "Fay → Ana: $12.00"
            lines.append("  " + _("{payer} → {payee}: {amount}").format(
                payer=party_name(t["payer"]), payee=party_name(t["payee"]), amount=paid))
    elif in_chips and settled is not None and standings["players"]:
        lines.append(_("Nobody owes anything."))
    return [part for line in lines for part in wrap_words(line, width)]
