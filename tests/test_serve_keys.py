"""`pan serve`'s keys kept with the database: a restart keeps the players' and the dealer's addresses,
and the dealer's open page its check values; --new-token and --new-dealer-key replace them on purpose."""

import re
import stat
import subprocess

import httpx
import pytest

from helpers import HANG, PAN, Pan, child_env, event_count, start_server, stop_server


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    return db


def serving(db, *args):
    """Starts `pan serve --dealer`; (the process, the players' address, the dealer's address)."""
    proc, url = start_server(db, "--no-qr", "--dealer", *args)
    assert proc.stdout.readline().startswith("The dealer's address")
    return proc, url, proc.stdout.readline().strip()


def stopped(proc) -> str:
    rc, _out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err
    return err


def tap(url: str, dealer_url: str, csrf: str, key: str, **body) -> httpx.Response:
    """A tap, made on the session the dealer's page shows (as every tap names its session)."""
    origin = url.split("/?")[0]
    if "session" not in body:
        page = httpx.get(dealer_url, timeout=HANG)
        found = re.search(r'"session_uid":"([^"]+)"', page.text)
        body["session"] = found.group(1) if found else "none"
    return httpx.post(origin + "/dealer/api/action", json={"key": key, **body},
                      headers={"X-Pan-Dealer": dealer_url.split("dealer=")[1], "X-Pan-CSRF": csrf, "Origin": origin})


def test_a_restart_keeps_both_addresses_and_the_dealer_pages_check_values(db):
    proc, url, dealer_url = serving(db)
    try:
        page = httpx.get(dealer_url)
        assert page.status_code == 200
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)
        assert tap(url, dealer_url, csrf, "keep-000001", action="deal").status_code == 200
    finally:
        stopped(proc)
    for who in ("players", "dealer"):
        kept = db.with_name(f"pan.db-{who}.key")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    # the same command line: the same addresses, and the page opened before the restart taps on
    proc, again, dealer_again = serving(db)
    try:
        assert (again.split("/?")[1], dealer_again.split("/dealer")[1]) == \
            (url.split("/?")[1], dealer_url.split("/dealer")[1])
        again_url = again  # the port is a new free one; the token is what is kept
        r = tap(again_url, dealer_again, csrf, "keep-000002", action="drop", player="cruz")
        assert r.status_code == 200, r.text
        assert httpx.get(again_url.replace("/?", "/api/standings?", 1)).status_code == 200
    finally:
        stopped(proc)
    assert event_count(db) == 2


def test_a_new_dealer_key_cuts_the_old_phone_off_and_keeps_the_players_address(db):
    proc, url, dealer_url = serving(db)
    try:
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', httpx.get(dealer_url).text).group(1)
    finally:
        stopped(proc)
    proc, again, dealer_again = serving(db, "--new-dealer-key")
    try:
        assert again.split("/?")[1] == url.split("/?")[1]
        assert dealer_again.split("dealer=")[1] != dealer_url.split("dealer=")[1]
        old = dealer_url.replace(url.split("/?")[0], again.split("/?")[0])
        r = httpx.get(old)
        assert r.status_code == 403 and r.json()["error"] == "Forbidden: this needs the dealer's token"
        r = tap(again, old, csrf, "old-000001", action="deal")
        assert r.status_code == 403 and "\n" not in r.json()["error"]
        assert httpx.get(dealer_again).status_code == 200
    finally:
        stopped(proc)
    assert event_count(db) == 0


def test_new_token_replaces_the_players_token_and_token_overrides_it(db):
    proc, url, _dealer = serving(db)
    stopped(proc)
    proc, fresh, _dealer = serving(db, "--new-token")
    stopped(proc)
    assert fresh.split("/?")[1] != url.split("/?")[1]
    proc, chosen, _dealer = serving(db, "--token", "my-own-token")
    stopped(proc)
    assert chosen.endswith("/?token=my-own-token")
    proc, kept, _dealer = serving(db)
    stopped(proc)
    assert kept.split("/?")[1] == fresh.split("/?")[1]  # --token left the kept one alone


def test_the_options_that_do_not_go_together_are_refused(db):
    r = Pan(db)("serve --token my-own-token --new-token", code=2)
    assert "--token and --new-token cannot go together" in r.output
    r = Pan(db)("serve --new-dealer-key", code=2)
    assert "add --dealer" in r.output
    assert not db.with_name("pan.db-dealer.key").exists()


def test_a_dealer_key_readable_by_others_is_refused_in_one_line(db):
    kept = db.with_name("pan.db-dealer.key")
    kept.write_bytes(b"k" * 32)
    kept.chmod(0o644)
    r = subprocess.run([*PAN, "--db", str(db), "serve", "--dealer", "--no-qr", "--port", "0"], capture_output=True,
                       text=True, env=child_env(), timeout=HANG)  # the timeout: only a guard against a hang
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and f"chmod 600 {kept}" in r.stderr, r.stderr


def test_no_key_is_made_beside_a_database_that_is_not_there(tmp_path):
    r = Pan(tmp_path / "none.db")("serve --dealer --no-qr", code=2)
    assert "Traceback" not in r.output
    assert list(tmp_path.iterdir()) == []


def test_typing_dealer_shows_the_kept_dealer_address_again(db):
    from concurrent.futures import ThreadPoolExecutor

    proc, url = start_server(db, "--dealer", stdin=subprocess.PIPE)
    try:
        def until(text: str) -> list[str]:
            lines = []
            while text not in (line := proc.stdout.readline()):
                assert line, lines
                lines.append(line)
            return lines

        with ThreadPoolExecutor(1) as pool:
            printed = pool.submit(until, "To show another QR code").result(timeout=HANG)
            dealer_url = next(line.strip() for line in printed if "/dealer?dealer=" in line)
            proc.stdin.write("dealer\n")
            proc.stdin.flush()
            pool.submit(until, "The dealer's QR code:").result(timeout=HANG)
        assert httpx.get(dealer_url).status_code == 200
        proc.stdin.close()
    finally:
        stopped(proc)
    proc, _url, dealer_again = serving(db)
    stopped(proc)
    assert dealer_again.split("/dealer")[1] == dealer_url.split("/dealer")[1]
