"""`pan serve`'s QR codes at an 80x30 terminal: the players' code is printed whole with everything
else it says, and the dealer's and the TV board's come one at a time, on request."""

import math
import subprocess

from pancli.cli.commands.sessions.serve import _qr

from helpers import Pan, start_server, stop_server

COLUMNS, ROWS = 80, 30


def rows_on(lines: list[str]) -> int:
    """The rows these lines take at an 80-column terminal (a longer line wraps)."""
    return sum(max(1, math.ceil(len(line) / COLUMNS)) for line in lines)


def test_a_qr_code_of_a_long_lan_address_fits_a_small_terminal():
    for url in ("http://192.168.100.200:65535/?token=AbCdEfGhIjKlMnOp",
                "http://192.168.100.200:65535/dealer?dealer=AbCdEfGhIjKlMnOp",
                "http://192.168.100.200:65535/tv?token=AbCdEfGhIjKlMnOp"):
        code = _qr(url).splitlines()
        assert len(code) <= 21 and max(len(line) for line in code) <= 41, url


def read_until(proc, ending: str) -> list[str]:
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, "the server stopped: " + proc.stderr.read()
        lines.append(line.rstrip("\n"))
        if ending in line:
            return lines


def test_serve_dealer_at_80x30_shows_the_players_code_then_others_on_request(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz --dealer Cruz")
    proc, url = start_server(db, "--dealer", stdin=subprocess.PIPE)
    try:
        shown = [url, *read_until(proc, "and press Enter.")]
        assert rows_on(shown) <= ROWS  # the players' code is not scrolled away
        qr = _qr(url).splitlines()
        assert shown[1:1 + len(qr)] == qr  # the players' first, right under their address
        text = "\n".join(shown)
        assert "The dealer's address (it records: show it to the dealer only):" in text
        dealer_url = next(line for line in shown if "/dealer?dealer=" in line)
        tv_url = url.replace("/?", "/tv?")
        assert f"The TV board: {tv_url}" in text
        assert text.count("▀") + text.count("█") > 0 and _qr(dealer_url) not in text + "\n"

        proc.stdin.write("dealer\n")
        proc.stdin.flush()
        asked = read_until(proc, "The dealer's QR code:")
        code = [proc.stdout.readline().rstrip("\n") for _ in _qr(dealer_url).splitlines()]
        assert code == _qr(dealer_url).splitlines() and rows_on(asked[-1:] + code) <= ROWS

        proc.stdin.write("tv\n")
        proc.stdin.flush()
        read_until(proc, "The TV board QR code:")
        code = [proc.stdout.readline().rstrip("\n") for _ in _qr(tv_url).splitlines()]
        assert code == _qr(tv_url).splitlines()

        proc.stdin.write("radio\n")
        proc.stdin.flush()
        assert read_until(proc, "There is no QR code")[-1] == \
            "There is no QR code called 'radio': type players, tv, dealer."
    finally:
        proc.stdin.close()
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err
