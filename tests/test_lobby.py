"""The club's lobby (`pan serve --club`): a night recorded on host A, synced through the club's
folder, is a live card on host C's lobby; closed or long-quiet tables are not; no club, no lobby."""

from __future__ import annotations

import json
import re
import sqlite3
import warnings
from datetime import UTC, datetime, timedelta

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.web.app import create_app
from pancli.web.lobby import LIVE_HOURS, live_tables

from helpers import Pan, pan_process

TOKEN = "lobby-token-1234"


def sync(pan: Pan, folder=None) -> dict:
    return json.loads(pan(f"sync {folder or ''} --json").stdout)


@pytest.fixture
def club(tmp_path):
    """Kasia (host A) starts the club and records a night; Cruz (host C) only syncs the folder."""
    folder = tmp_path / "shared"
    folder.mkdir()
    kasia, cruz = Pan(tmp_path / "kasia.db"), Pan(tmp_path / "cruz.db")
    kasia("session new friday --players Ana,Ben,Dee")
    for line in ("deal", "drop dee", "meld ana 5S 5S 5S", "meld ben 7H 7H 7H"):
        kasia(line)
    kasia(f"sync {folder} --device-name kasia")
    kasia("club init 'Friday club'")
    sync(kasia)
    cruz("session new old --players Eve,Fay,Gus")
    cruz("deal")
    cruz("void")
    cruz("session close old")
    cruz(f"sync {folder} --device-name cruz")
    return folder, kasia, cruz


def test_a_night_recorded_on_host_a_is_a_live_card_on_host_c(club):
    folder, kasia, cruz = club
    with TestClient(create_app(cruz.db, TOKEN, club=True)) as c:
        data = c.get(f"/api/lobby?token={TOKEN}").json()
        assert data["live_hours"] == LIVE_HOURS
        [table] = [t for t in data["tables"] if t["session"].startswith("friday")]
        assert table["device_label"] == "kasia" and not table["recorded_here"]
        assert table["game"] == "panguingue" and table["hand"] == 1
        assert {r["name"]: r["net"] for r in table["standings"]} == kasia.nets()
        assert "Ben" in table["last_event"] and table["minutes_ago"] < LIVE_HOURS * 60
        page = c.get(f"/lobby?token={TOKEN}")
        assert page.status_code == 200
        html = page.text
        assert "kasia" in html and "Ben" in html and table["last_event"] in html.replace("&#39;", "'")
        link = re.search(r'href="(/\?[^"]*session=friday[^"]*)"', html)
        assert link, html
        table_page = c.get(link.group(1).replace("&amp;", "&"))
        assert table_page.status_code == 200 and "Ana" in table_page.text
        assert f"{LIVE_HOURS} hours" in html
        tv = c.get(f"/tv/lobby?token={TOKEN}")
        assert tv.status_code == 200 and "friday" in tv.text and "seconds" in tv.text


def test_closed_and_quiet_tables_are_not_live(club):
    folder, kasia, cruz = club
    with TestClient(create_app(cruz.db, TOKEN, club=True)) as c:
        names = [t["session"] for t in c.get(f"/api/lobby?token={TOKEN}").json()["tables"]]
    assert "old" not in names  # closed on Cruz
    con = sqlite3.connect(cruz.db)
    with con:
        old = (datetime.now(UTC) - timedelta(hours=LIVE_HOURS, minutes=5)).isoformat(timespec="seconds")
        con.execute("UPDATE events SET created_at = ?", [old])
    con.close()
    with TestClient(create_app(cruz.db, TOKEN, club=True)) as c:
        assert c.get(f"/api/lobby?token={TOKEN}").json()["tables"] == []
        assert "No table is live now." in c.get(f"/lobby?token={TOKEN}").text


def test_the_lobby_is_served_only_with_club(club):
    folder, kasia, cruz = club
    with TestClient(create_app(cruz.db, TOKEN)) as c:
        assert c.get(f"/lobby?token={TOKEN}").status_code == 404
    with TestClient(create_app(cruz.db, TOKEN, club=True)) as c:
        assert c.get("/lobby?token=wrong-token-000").status_code in (401, 403)


def test_serve_club_without_a_club_refuses_in_one_line(tmp_path):
    lone = Pan(tmp_path / "lone.db")
    lone("session new friday --players Ana,Ben,Dee")
    r = pan_process(tmp_path / "lone.db", ["serve", "--club", "--port", "0", "--no-qr"])
    assert r.returncode != 0
    assert "belongs to no club" in r.stderr and "pan club init NAME" in r.stderr
    assert "Traceback" not in r.stderr and not r.stdout.strip()


def test_live_tables_reads_the_clock_it_is_given(club):
    from pancli.web.data import Reader

    folder, kasia, cruz = club
    reader = Reader(cruz.db)
    assert [t["session"][:6] for t in live_tables(reader)] == ["friday"]
    later = datetime.now(UTC) + timedelta(hours=LIVE_HOURS, minutes=1)
    assert live_tables(reader, later) == []


def test_serve_club_prints_the_lobby_and_its_tv_panel_and_serves_them(club):
    import httpx

    from helpers import HANG, start_server, stop_server

    folder, kasia, cruz = club
    proc, url = start_server(cruz.db, "--no-qr", "--club")
    try:
        printed = [proc.stdout.readline().strip() for _ in range(3)]
        lobby = next(line.split(": ", 1)[1] for line in printed if line.startswith("The club's lobby: "))
        tv = next(line.split(": ", 1)[1] for line in printed if line.startswith("The lobby on a TV: "))
        assert lobby == url.replace("/?", "/lobby?") and tv == url.replace("/?", "/tv/lobby?")
        for address in (lobby, tv):
            r = httpx.get(address, timeout=HANG)
            assert r.status_code == 200 and "friday" in r.text
    finally:
        code, out, err = stop_server(proc)
    assert code == 0 and "Traceback" not in err
