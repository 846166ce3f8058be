"""`pan serve`: the table, read-only, on every player's phone over the local network.

Starlette, uvicorn, Jinja2 and segno are imported inside the command, so no other `pan`
command pays for them at start-up. What holds the server up on an open network (timeouts, bounds
on connections, the open-file limit) is in pancli/web/server.py.
"""

from __future__ import annotations

import io
import signal
import sys
import threading
from typing import TYPE_CHECKING
from urllib.parse import quote

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.output import echo
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.width import ambiguous_wide

if TYPE_CHECKING:
    import socket

DEFAULT_PORT = 8765


def lan_address() -> str | None:
    """This machine's address on the local network, from its own name; sends nothing anywhere."""
    import socket  # noqa: PLC0415 start-up: socket

    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return None
    for info in infos:
        address = info[4][0]
        if isinstance(address, str) and not address.startswith("127."):  # AF_INET: (host, port)
            return address
    return None


def _bind(host: str, port: int) -> socket.socket:
    import socket  # noqa: PLC0415 start-up: socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP spelled out: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say they are
    # TCP, and with it on, each keep-alive response waited 40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        hint = _("choose another with --port, or --port 0 for any free one") if e.errno == 98 else \
            _("check --host is an address of this machine")
        raise InputError(_("cannot listen on {host}:{port}: {why}").format(host=host, port=port, why=e.strerror or e),
                         hint) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _url(host: str, port: int, token: str) -> str:
    """The address to open; the token percent-encoded, so `&`, `#` or `%` in it stay part of it."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={quote(token, safe='')}"


def _qr(url: str) -> str:
    import segno  # noqa: PLC0415 start-up: segno

    out = io.StringIO()
    # Half blocks (two modules a cell) but where the terminal draws them two cells wide: then
    # two spaces a module, which every terminal draws square.
    segno.make(url, error="l").terminal(out=out, compact=not ambiguous_wide(), border=2)
    return out.getvalue()


def _codes_on_request(codes: dict[str, str]) -> None:
    # What each QR code is called when it is shown (the words typed stay: players, tv, dealer).
    # Said in this thread: the one below that reads standard input does not carry the language in force.
    titles = {"players": _("The players's QR code:"), "tv": _("The TV board QR code:"),
              "dealer": _("The dealer's QR code:"), "lobby": _("The club lobby's QR code:")}
    unknown = _("There is no QR code called {word}: type {codes}.")

    """One QR code at a time, so each fits a small terminal (80x30): the players' is printed first;
    typing another's name and Enter prints that one. Reads standard input in the background."""
    def listen() -> None:
        try:
            for line in sys.stdin:
                word = line.strip().lower()
                if word in codes:
                    print(titles[word], flush=True)
                    sys.stdout.write(_qr(codes[word]))
                    sys.stdout.flush()
                elif word:
                    print(unknown.format(word=repr(word), codes=", ".join(codes)), flush=True)
        except (OSError, ValueError):  # no standard input (a service, a closed terminal): nothing to read
            return

    threading.Thread(target=listen, name="pan-serve-codes", daemon=True).start()


commands = command_set()  # what this module adds to `pan`


@commands.command()
def serve(
    host: str = typer.Option("0.0.0.0", "--host", "-H",
                             help="Address to listen on: 0.0.0.0, the local network (default); 127.0.0.1 keeps it on this machine."),
    port: int = typer.Option(DEFAULT_PORT, "--port", "-p", help="Port to listen on (0: any free port)."),
    session: str | None = typer.Option(None, "--session", help="Session to show (default: the current one, "
                                                                  "following `pan session use`)."),
    token: str | None = typer.Option(None, "--token", help="Use this token for the players' address instead of the "
                                                              "one kept with the database."),
    new_token: bool = typer.Option(False, "--new-token", help="Replace the players' kept token: the old address and "
                                                                "QR code stop working."),
    no_qr: bool = typer.Option(False, "--no-qr", help="Print only the address, no QR code."),
    dealer: bool = typer.Option(False, "--dealer", help="Also serve the dealer's page, which records from a phone: "
                                                          "prints a second address and QR code, for the dealer only."),
    new_dealer_key: bool = typer.Option(False, "--new-dealer-key", help="With --dealer: replace the dealer's kept key, "
                                                                          "so the old dealer's phone is cut off."),
    club: bool = typer.Option(False, "--club", help="Also serve the club's lobby (/lobby): every live table of the "
                                                    "club, each one tap from its page, and /tv/lobby for a TV."),
) -> None:
    """Serve the table read-only on the local network: every player follows it live on a phone.

    Prints the address to open (with its token) and a QR code of it, and the TV board's
    address (/tv: the table for a television, in large type). The pages (the table,
    history, settle-up, each player) update by themselves within a second of each event,
    undo included; /api/board, /api/standings and /api/history give the same JSON as --json.
    The database is opened read-only: keep recording with `pan …` or `pan table` meanwhile.
    With --dealer, a second address (its own token) opens the dealer's page, which records
    the table by tapping, through the same recorder, each tap once. Type tv or dealer and
    Enter to show that QR code instead: one at a time, each fits a small terminal. Ctrl-C stops it.

    The players' token and the dealer's key are kept beside the database (pan.db-players.key,
    pan.db-dealer.key; never in its archives or replicas), so a restart, or pan serve tomorrow,
    keeps both addresses and QR codes, and the open pages carry on by themselves.
    --new-token and --new-dealer-key replace them: the old address is refused at once.

    Example: pan serve --dealer --new-dealer-key
    """
    import socket  # noqa: PLC0415 start-up: socket

    from pancli.storage.paths import resolve_path  # noqa: PLC0415 start-up: storage
    from pancli.storage.store import Store  # noqa: PLC0415 start-up: storage
    from pancli.web.app import create_app  # noqa: PLC0415 start-up: the web app
    from pancli.web.serve_keys import DEALER, PLAYERS, serve_key  # noqa: PLC0415 start-up: the web app
    from pancli.web.server import make_server  # noqa: PLC0415 start-up: the web app

    if not 0 <= port <= 65535:
        raise InputError(_("--port {port} is not a port: ports are between 0 and 65535").format(port=port),
                         _("choose another, or --port 0 for any free one"))
    if token is not None and (len(token) < 8 or not token.isprintable() or " " in token):
        raise InputError(_("--token must be at least 8 characters, with no spaces"),
                         _("or leave it out for the one kept with the database"))
    if token is not None and new_token:
        raise InputError(_("--token and --new-token cannot go together"),
                         _("give --token to choose the players' token, or --new-token for a fresh one"))
    if new_dealer_key and not dealer:
        raise InputError(_("--new-dealer-key replaces the dealer's key: it goes with --dealer"),
                         _("add --dealer"))
    path = resolve_path(app_context().db)
    Store(path, readonly=True).close()  # a missing or foreign database is refused before a key is made beside it
    if club:
        from pancli.web.lobby import refuse_without_club  # noqa: PLC0415 start-up: the web app

        refuse_without_club(path)
    if token is None:
        token = serve_key(path, PLAYERS, new=new_token).token
    dealer_key = serve_key(path, DEALER, new=new_dealer_key) if dealer else None
    dealer_token = dealer_key.token if dealer_key else None
    web = create_app(path, token, session, dealer_token=dealer_token,
                     dealer_secret=dealer_key.csrf_secret if dealer_key else None, club=club)  # refuses before listening
    reader = web.state.reader
    shown = reader.session(None) if session or reader.store().setting("current_session") else None
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    if host in ("0.0.0.0", "::", ""):
        address = lan_address()
        url = _url(address or socket.gethostname(), port, token)
    else:
        url = _url(host, port, token)

    server = make_server(web, token, web.state.hub)
    # Ctrl-C from the moment the URL is printed stops the server the same way, before uvicorn has
    # put in its own handlers (while it starts) too; uvicorn puts this handler back when it is done.
    previous = signal.signal(signal.SIGINT, server.handle_exit)
    try:
        print(url, flush=True)
        if not no_qr:
            sys.stdout.write(_qr(url))
        base = url.split("/?")[0]
        codes = {"players": url, "tv": url.replace("/?", "/tv?", 1)}
        if dealer_token:
            codes["dealer"] = f"{base}/dealer?dealer={quote(dealer_token, safe='')}"
            print(_("The dealer's address (it records: show it to the dealer only):"), flush=True)
            print(codes["dealer"], flush=True)
        print(_("The TV board: {url}").format(url=codes["tv"]), flush=True)
        if club:
            codes["lobby"] = url.replace("/?", "/lobby?", 1)
            print(_("The club's lobby: {url}").format(url=codes["lobby"]), flush=True)
            print(_("The lobby on a TV: {url}").format(url=url.replace("/?", "/tv/lobby?", 1)), flush=True)
        echo(_serving(shown.name if shown else None, bool(session), bool(dealer_token)).format(
            session=shown.name if shown else "", path=path))  # a stored name: inert
        if host in ("0.0.0.0", "::") and not lan_address():
            print(_("Could not tell this machine's address on the network: if the address above does not open, "
                    "use the one your network settings show."), flush=True)
        if not no_qr:
            # Translators: the words to type (tv, dealer, players) stay as they are
            text = _("To show another QR code, type tv or dealer (or players) and press Enter.") if dealer_token \
                else _("To show another QR code, type tv (or players) and press Enter.")
            print(text, flush=True)
            _codes_on_request(codes)
        server.run(sockets=[sock])  # a Ctrl-C already seen has set should_exit: it stops at once
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, previous)
        sock.close()
    print(_("Stopped serving."), flush=True)


def _serving(name: str | None, chosen: bool, dealer: bool) -> str:
    """What `pan serve` says it serves: one whole message per case."""
    if name is not None and chosen:
        return _("Serving session {session} with the dealer page from {path}. Ctrl-C stops.") if dealer else \
            _("Serving session {session} read-only from {path}. Ctrl-C stops.")
    if name is not None:
        return _("Serving session {session} (follows `pan session use`) with the dealer page from {path}. "
                 "Ctrl-C stops.") if dealer else \
            _("Serving session {session} (follows `pan session use`) read-only from {path}. Ctrl-C stops.")
    if chosen:
        return _("Serving the current session with the dealer page from {path}. Ctrl-C stops.") if dealer else \
            _("Serving the current session read-only from {path}. Ctrl-C stops.")
    return _("Serving the current session (follows `pan session use`) with the dealer page from {path}. "
             "Ctrl-C stops.") if dealer else \
        _("Serving the current session (follows `pan session use`) read-only from {path}. Ctrl-C stops.")
