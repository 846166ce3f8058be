"""The pages in the phone's language: the switch and its cookie, Accept-Language, the session's
house language, each phone its own at one table; the scripts' words all listed for the catalog;
the pages in Polish and Russian from the shipped catalog."""

from __future__ import annotations

import asyncio
import json
import re
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

from pancli.core import i18n
from pancli.storage import catalogs
from pancli.web import language, script_words
from pancli.web.app import create_app

from helpers import pan_in_process as pan

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

STATIC = Path(__file__).resolve().parent.parent / "pancli" / "web" / "static"
TOKEN = "lang-token"
# The Polish and Russian lines are read from the shipped catalog (pancli/locale).


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "p.db"
    for line in ["session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25", "deal",
                 "drop cruz", "meld ben 5S 5S 5S"]:
        pan(path, line)
    return path


def get(client, path="/", **params):
    r = client.get(path, params={"token": TOKEN, **params})
    assert r.status_code == 200, r.text
    return r


# -- the scripts' words ---------------------------------------------------------------------------

JS_STRING = r'"((?:[^"\\]|\\.)*)"'


def script_calls(name: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The messages of a script's t("…") and tn("…", "…", n) calls, string concatenations joined."""
    text = (STATIC / name).read_text(encoding="utf-8")
    text = re.sub(r'"\s*\+\s*\n\s*"', "", text)  # "a " +\n "b" is one message
    unquote = lambda s: json.loads(f'"{s}"')  # noqa: E731  (the scripts' strings are JSON's)
    singles = {unquote(m) for m in re.findall(r"\bt\(" + JS_STRING, text)}
    counted = {(unquote(a), unquote(b)) for a, b in re.findall(r"\btn\(" + JS_STRING + r",\s*" + JS_STRING, text)}
    return singles, counted


def test_every_word_of_the_scripts_is_listed_for_the_catalog():
    singles, counted = set(), set()
    for name in ("dealer.js", "live.js", "tv.js"):
        s, c = script_calls(name)
        singles |= s
        counted |= c
    assert singles, "no t(…) found: the pattern no longer matches the scripts"
    assert singles == set(script_words.WORDS)
    assert counted == set(script_words.COUNTED)


def test_the_embedded_words_are_json_a_page_cannot_break_out_of():
    text = str(script_words.words_json())
    assert "<" not in text and ">" not in text and "&" not in text
    assert '"lang":"en"' in text


# -- choosing the language -------------------------------------------------------------------------

def scope(query=b"", **headers):
    return {"type": "http", "query_string": query,
            "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}


def test_the_switch_beats_the_cookie_which_beats_the_browser(monkeypatch):
    monkeypatch.setattr(catalogs, "available", lambda: ["en", "pl", "ru"])
    assert language.chosen(scope(b"lang=ru", cookie="pan_lang=pl", accept_language="pl")) == ("ru", "ru")
    assert language.chosen(scope(cookie="pan_lang=pl", accept_language="ru")) == ("pl", None)
    assert language.chosen(scope(accept_language="de-DE,ru;q=0.8,pl;q=0.5")) == ("ru", None)
    assert language.chosen(scope(accept_language="de-DE,fr")) == (None, None)
    assert language.chosen(scope()) == (None, None)


@pytest.mark.parametrize("hostile", ["xx", "pl; Path=/", "../../etc", "PL", "pl" * 40, "\u0440\u0443", ""])
def test_a_hostile_language_is_ignored_never_echoed(monkeypatch, hostile):
    monkeypatch.setattr(catalogs, "available", lambda: ["en", "pl", "ru"])
    from urllib.parse import quote
    assert language.chosen(scope(f"lang={quote(hostile)}".encode())) == (None, None)
    assert language.chosen(scope(cookie=f"pan_lang={quote(hostile)}")) == (None, None)
    assert language.chosen(scope(cookie="pan_lang=\"x;;;;")) == (None, None)


def test_the_house_language_speaks_only_when_the_phone_asked_for_none(monkeypatch):
    monkeypatch.setattr(catalogs, "available", lambda: ["en", "pl", "ru"])
    house = SimpleNamespace(language="ru")
    assert language.house(house) == "ru"
    assert language.house(SimpleNamespace()) == "en"  # a database before the column
    assert language.house(SimpleNamespace(language="xx")) == "en"
    assert language.house(None) == "en"
    token = language._asked.set("pl")
    try:
        assert language.house(house) == "pl"
    finally:
        language._asked.reset(token)


def test_the_switch_is_remembered_in_a_cookie_and_the_page_says_its_language(db):
    with TestClient(create_app(db, TOKEN)) as c:
        r = get(c)
        assert '<html lang="en">' in r.text and "set-cookie" not in r.headers
        assert 'href="/?token=' + TOKEN + '&amp;lang=pl"' in r.text  # the switch keeps the token
        r = get(c, lang="pl")
        if "pl" not in catalogs.available():
            assert "set-cookie" not in r.headers  # a language pancli has no catalog for is not chosen
            return
        assert r.headers["set-cookie"].startswith("pan_lang=pl;") and "SameSite=Strict" in r.headers["set-cookie"]
        assert '<html lang="pl">' in get(c).text  # the cookie, on the next page


def test_a_language_in_force_reaches_worker_threads_and_live_streams(monkeypatch):
    """What pan serve relies on: a handler in starlette's thread pool, and a stream's body, run in
    the request's context."""
    seen = {}

    def in_thread():
        return i18n.language()

    async def page(request):
        return PlainTextResponse(await run_in_threadpool(in_thread))

    async def stream(request):
        async def body():
            await asyncio.sleep(0)
            yield i18n.language()
            seen["after"] = i18n.language()
        return StreamingResponse(body())

    app = language.Speaking(Starlette(routes=[Route("/", page), Route("/s", stream)]))
    fake = SimpleNamespace(gettext=lambda m: m, ngettext=lambda s, p, n: p, pgettext=lambda c, m: m,
                           npgettext=lambda c, s, p, n: p)
    monkeypatch.setattr(catalogs, "available", lambda: ["en", "pl", "ru"])
    monkeypatch.setattr(catalogs, "catalog", lambda code: None if code == "en" else fake)
    with TestClient(app) as c:
        assert c.get("/", headers={"Accept-Language": "ru"}).text == "ru"
        assert c.get("/s", headers={"Accept-Language": "pl"}).text == "pl"
        assert seen["after"] == "pl"
        assert c.get("/").text == "en"


# -- Polish and Russian, from the shipped catalog ------------------------------------------------------

@pytest.mark.parametrize("lang, words", [("pl", ["Rozdanie 1", "Wyniki", "Historia"]),
                                         ("ru", ["Сдача 1", "Результаты", "История"])])
def test_the_table_page_in_polish_and_russian(db, lang, words):
    with TestClient(create_app(db, TOKEN)) as c:
        text = get(c, lang=lang).text
    assert f'<html lang="{lang}">' in text
    for word in words:
        assert word in text, word
    assert "Standings" not in text and "Last events" not in text


def test_each_phone_at_one_table_reads_its_own_language(db):
    with TestClient(create_app(db, TOKEN)) as c:
        def phone(lang, path="/"):
            headers = {"Cookie": f"pan_lang={lang}"} if lang else {"Accept-Language": "de"}
            r = c.get(path, params={"token": TOKEN}, headers=headers)
            assert r.status_code == 200
            return r.text

        for _round in range(2):  # the second time from what the server keeps: still each its own
            for path, pl, ru, en in (("/", "Rozdanie 1", "Сдача 1", "Hand 1"), ("/tv", "Wyniki", "Результаты", "Standings"),
                                     ("/settle", "Salda", "Балансы", "Balances")):
                assert '<html lang="pl">' in phone("pl", path) and pl in phone("pl", path)
                assert '<html lang="ru">' in phone("ru", path) and ru in phone("ru", path)
                assert '<html lang="en">' in phone(None, path) and en in phone(None, path)


def test_json_keeps_english_keys_and_its_error_is_translated(db):
    with TestClient(create_app(db, TOKEN)) as c:
        c.cookies.set("pan_lang", "pl")
        r = c.get("/api/history", params={"token": TOKEN, "page": "x"})
        assert r.status_code == 400
        body = r.json()
        assert set(body) == {"error", "hint", "status"}
        assert "whole number" not in body["error"] and "'x'" in body["error"]
        board = c.get("/api/standings", params={"token": TOKEN}).json()
        assert "players" in board


def test_the_scripts_words_come_with_each_plural_form():
    with catalogs.speaking("ru"):
        text = str(script_words.words_json())
    data = json.loads(text)
    assert data["lang"] == "ru"
    forms = data["counted"]["{chips} chip"]
    assert len(forms) == 3 and all("{chips}" in f for f in forms)
    assert [data["plural"][n] for n in (1, 2, 5, 11, 21, 22, 25)] == [0, 1, 2, 2, 0, 1, 2]


@pytest.mark.parametrize("path", ["/api/board", "/api/standings", "/api/history", "/api/settle", "/api/sessions",
                                  "/api/player/Ana"])
def test_json_is_the_same_in_every_language(db, path):
    """The JSON beside every page holds the same data whatever the phone reads: English keys and
    values; only its sentences for people (an event's line, the settle-up's) are in the page's
    language, as the page shows them."""
    with TestClient(create_app(db, TOKEN)) as c:
        english = data_of(get(c, path).json())
        for lang in ("pl", "ru"):
            r = c.get(path, params={"token": TOKEN}, headers={"Cookie": f"pan_lang={lang}"})
            assert r.status_code == 200 and data_of(r.json()) == english, lang


SENTENCES = ("line", "mode_line", "bank_line", "notes", "settles", "text")  # words for people


def data_of(value):
    if isinstance(value, dict):
        return {k: data_of(v) for k, v in value.items() if k not in SENTENCES}
    if isinstance(value, list):
        return [data_of(v) for v in value]
    return value


@pytest.mark.parametrize("result, over, winner", [(None, False, None), ("won by Ana", True, "Ana"), ("void", True, None),
                                                  ("tops chopped by Ana and Ben", True, None)])
def test_a_hands_result_reads_as_the_board_says_it_in_english(result, over, winner):
    from pancli.web.filters import hand_result
    expected = result or "in play"
    assert hand_result({"result": expected if over else "in play", "over": over, "winner": winner}) == expected


def test_money_and_dates_on_the_pages_as_polish_and_russian_write_them(db):
    with TestClient(create_app(db, TOKEN)) as c:
        english = get(c, "/settle").text
        polish = c.get("/settle", params={"token": TOKEN}, headers={"Cookie": "pan_lang=pl"}).text
        russian = c.get("/sessions", params={"token": TOKEN}, headers={"Cookie": "pan_lang=ru"}).text
    assert "$0.25 a chip" in english
    assert "0,25 za żeton" in polish and "$0.25" not in polish
    assert re.search(r"-1,00<", polish)  # a player's money, with the decimal comma
    day = re.search(r"\d{4}-\d\d-\d\d", get_sessions_english(db)).group(0)
    y, m, d = day.split("-")
    assert f"{d}.{m}.{y}" in russian and day not in russian


def get_sessions_english(db) -> str:
    with TestClient(create_app(db, TOKEN)) as c:
        return get(c, "/sessions").text


def test_a_session_with_a_house_language_speaks_it_to_a_phone_that_asked_for_none(tmp_path):
    path = tmp_path / "house.db"
    pan(path, "session new wtorek --players Ola,Piotr,Zosia --house-language pl")
    with TestClient(create_app(path, TOKEN)) as c:
        assert '<html lang="pl">' in c.get("/", params={"token": TOKEN}, headers={"Accept-Language": "de"}).text
        assert '<html lang="en">' in c.get("/", params={"token": TOKEN}, headers={"Accept-Language": "en-GB"}).text
        assert '<html lang="ru">' in c.get("/", params={"token": TOKEN, "lang": "ru"}).text


@pytest.mark.parametrize("name", ["A#b", "Q?x", "50%", "Ana/2", "x&lang=ru", "Zoë 1"])
def test_the_language_switch_of_a_players_page_keeps_a_name_with_hash_question_mark_or_percent(tmp_path, name):
    """The switch's links quote the name (and the page's other links to itself), so each opens the
    same player's page in the language chosen."""
    import html
    from urllib.parse import quote

    path = tmp_path / "odd.db"
    pan(path, ["session", "new", "friday", "--players", f"{name},Ben,Cruz", "--dealer", "Ben"])
    with TestClient(create_app(path, TOKEN)) as c:
        page = get(c, "/player/" + quote(name, safe=""))
        assert '<html lang="en">' in page.text
        links = {code: html.unescape(href) for href, code in
                 re.findall(r'<a href="([^"]*)" lang="(\w+)" hreflang', page.text)}
        assert set(links) == set(catalogs.available()) and {"en", "pl", "ru"} <= set(links)
        for code, href in links.items():
            assert "#" not in href and href.startswith("/player/" + quote(name, safe="") + "?")
            r = c.get(href)
            assert r.status_code == 200, (href, r.text[:200])
            assert f'<html lang="{code}">' in r.text and html.escape(name) in r.text
# -- the dealer's phone: refusals and the end of a hand in the page's language --------------------

DEALER = "lang-dealer-token"
NAMES = {"Ana", "Ben", "Cruz", "Dee", "zed"}


def dealer_post(path, body: dict, lang: str) -> dict:
    """One tap of the dealer's page with the phone in ``lang``: its answer."""
    with TestClient(create_app(path, TOKEN, dealer_token=DEALER), base_url="http://testserver") as c:
        page = c.get("/dealer", params={"dealer": DEALER})
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)
        headers = {"X-Pan-Dealer": DEALER, "X-Pan-CSRF": csrf, "Origin": "http://testserver",
                   "Accept-Language": lang}
        key = f"tap-{lang}-{abs(hash(json.dumps(body, sort_keys=True))):016d}"
        return c.post("/dealer/api/action", json={"key": key, **body}, headers=headers).json()


def dealer_table(path, lang: str) -> dict:
    with TestClient(create_app(path, TOKEN, dealer_token=DEALER), base_url="http://testserver") as c:
        r = c.get("/dealer/api/table", headers={"X-Pan-Dealer": DEALER, "Accept-Language": lang})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture
def tables(tmp_path):
    """A Panguingue hand in play (Ben's meld 1 down, Cruz dropped) and a contract deal Ana went out of."""
    pan_db, contract_db = tmp_path / "pan.db", tmp_path / "contract.db"
    for line in ["session new friday --players Ana,Ben,Cruz,Dee --dealer Dee", "deal", "drop cruz",
                 "meld ben 5S 5S 5S"]:
        pan(pan_db, line)
    for line in ["session new rummy --game contract --players Ana,Ben,Cruz --dealer Cruz",
                 'contract lay ana "7S 7H 7D + QC QD QS"', "contract out ana --discard 2H"]:
        pan(contract_db, line)
    return {"pan": pan_db, "contract": contract_db}


# Every refusal a dealer can get from a tap: a wrong card, an unknown player, an illegal meld, a
# missing choice, a bad amount, and a move the hand does not allow now.
TAPS = [
    ("pan", {"action": "meld", "player": "ben", "cards": "5S XX 7D"}),       # not a card
    ("pan", {"action": "meld", "player": "zed", "cards": "5S 5S 5S"}),       # no such player
    ("pan", {"action": "meld", "player": "ana", "cards": "5S 6H 7D"}),       # an illegal meld
    ("pan", {"action": "meld", "player": "ana"}),                            # no cards chosen
    ("pan", {"action": "borrow", "player": "ben", "from": 1, "cards": "5S"}),  # nothing from the hand
    ("pan", {"action": "add", "player": "ana", "cards": "5S"}),              # no meld to add to
    ("pan", {"action": "add", "player": "ben", "cards": "5S", "to": 9}),     # no such meld
    ("pan", {"action": "drop", "player": "cruz"}),                           # dropped already
    ("pan", {"action": "deal"}),                                             # the hand is in play
    ("pan", {"action": "split", "player": "ben", "meld": 1, "into": "5S 5S"}),  # one part
    ("pan", {"action": "out", "player": "ana", "cards": "4H 4D 4C"}),        # too few cards to go out
    ("pan", {"action": "foul", "player": "ben"}),                            # which meld?
    ("pan", {"action": "join", "player": "Eve"}),                            # seated only between hands
    ("contract", {"action": "left", "player": "ben", "points": "abc"}),      # a bad amount
    ("contract", {"action": "left", "player": "ben", "points": -3}),         # a bad amount
    ("contract", {"action": "left", "player": "ben"}),                       # neither cards nor points
    ("contract", {"action": "left", "player": "ben", "cards": "KC", "points": 3}),  # both
]
COMMAND_WORDS = re.compile(r"`|--[a-z]|\bpan [a-z]|\b(type|record) `?[a-z]+`")


def ascii_words(text: str) -> set[str]:
    """The words of Latin letters in a line, but card codes (5S, KH, XX) and single letters."""
    return {w for w in re.findall(r"[A-Za-z]{2,}", text) if not re.fullmatch(r"[A-Z]{1,2}", w)}


@pytest.mark.parametrize("table, tap", TAPS, ids=[f"{t}-{b['action']}-{i}" for i, (t, b) in enumerate(TAPS)])
def test_a_refusal_on_the_phone_names_no_command_option_or_parameter_and_no_english(tables, table, tap):
    said = {lang: dealer_post(tables[table], tap, lang) for lang in ("en", "pl", "ru")}
    english = " ".join([said["en"]["error"], said["en"]["hint"]])
    assert said["en"]["status"] == 400 and said["en"]["error"], said
    # the parameters' names that are no noun of the table (cards, player, points are)
    params = {"with", "from", "into", "to", "after_discard", "onto"}
    for lang, answer in said.items():
        line = f"{answer['error']}: {answer['hint']}"
        assert not COMMAND_WORDS.search(line), (lang, line)
        # a parameter's own name, as the old "the action has no with: choose the with first" said it
        assert not re.search(r"(?:no|:|choose the)\s+(?:" + "|".join(sorted(params)) + r")\b", line), (lang, line)
        if lang == "en":
            continue
        given = {str(v) for v in tap.values()} | NAMES | {"abc"}
        foreign = ascii_words(line) - given - {w for v in given for w in re.findall(r"[A-Za-z]+", v)}
        if lang == "ru":  # Russian is written in Cyrillic: a Latin word is an English one left over
            assert foreign == set(), (line, english)
        else:  # Polish shares the alphabet: no word of the English line may be left in it ("to", "do"
            # and "nie" are Polish words too: three letters and more)
            assert {w for w in foreign & ascii_words(english) if len(w) > 2} == set(), (line, english)


def test_the_end_of_a_hand_on_the_dealers_page_is_in_the_pages_language(tables):
    for line in ["add ben 5S", "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C"]:
        pan(tables["pan"], line)
    assert dealer_table(tables["pan"], "en")["result"] == "won by Ben"
    assert dealer_table(tables["pan"], "pl")["result"] == "wygrana: Ben"
    assert dealer_table(tables["pan"], "ru")["result"] == "победа: Ben"
    # and what is still to record names the phone's button, never the command
    still = {lang: dealer_table(tables["contract"], lang)["still_to_record"] for lang in ("en", "pl", "ru")}
    assert still == {"en": "Still to record (Cards left): the cards left of Ben, Cruz.",
                     "pl": "Do zapisania (Karty w ręce) zostały karty w ręce: Ben, Cruz.",
                     "ru": "Осталось записать (Карты на руке) карты на руке: Ben, Cruz."}


# -- the closest language there is (issue 40) -------------------------------------------------------

@pytest.mark.parametrize("header, known, expected", [
    ("uk", ["en", "pl", "ru"], ("ru", "uk")),  # CLDR: a Ukrainian reader reads Russian (distance 24)
    ("uk-UA", ["en", "pl", "ru"], ("ru", "uk-UA")),
    ("uk, en;q=0.5", ["en", "pl", "ru"], ("en", None)),  # English, listed, beats the closest by demotion
    ("es-MX", ["en", "es", "pl"], ("es", None)),  # the same language: no note
    ("ca", ["en", "es"], ("es", "ca")),  # Catalan -> Spanish (20)
    ("ca,de,fr,it,nl,en", ["en", "es"], ("es", "ca")),  # ... closer than English listed sixth (5 x 5 = 25)
    ("ca,en", ["en", "es"], ("en", None)),  # ... not than English listed second
    ("pt", ["en", "es", "pl", "ru"], (None, None)),  # Portuguese is not Spanish (84): the house decides
    ("sr", ["bg", "en", "ru"], (None, None)),  # nor is Serbian Bulgarian (84)
    ("de-DE,ru;q=0.8,pl;q=0.5", ["en", "pl", "ru"], ("ru", None)),  # as before: the first pancli speaks
    ("x!!,,;q=a,pl", ["en", "pl"], ("pl", None)),  # not a language tag: passed over
    ("uk", ["en", "qps", "ru"], ("ru", "uk")),  # the pseudo-language is nobody's closest
    ("", ["en", "ru"], (None, None)),
])
def test_a_browser_gets_the_closest_catalog_there_is(header, known, expected):
    assert language.closest(header, known) == expected


def test_a_page_in_the_closest_language_says_which_under_the_switch(db):
    with TestClient(create_app(db, TOKEN)) as c:
        for path in ("/", "/tv", "/settle", "/history"):
            r = c.get(path, params={"token": TOKEN}, headers={"Accept-Language": "uk"})
            assert '<html lang="ru">' in r.text and "set-cookie" not in r.headers
            note = re.search(r'<p class="closest" role="note">([^<]*)</p>', r.text)
            assert note is not None, path
            assert note.group(1) == "Эта страница на русском: из наших языков он ближе всего к вашему (украинский)."
            assert r.text.index('class="langs"') < note.start()  # under the switch
        # a language asked for exactly, chosen with the switch or remembered: no such line
        for headers in ({"Accept-Language": "ru"}, {"Accept-Language": "uk", "Cookie": "pan_lang=ru"},
                        {"Accept-Language": "uk, en;q=0.5"}, {"Accept-Language": "pt"}):
            r = c.get("/", params={"token": TOKEN}, headers=headers)
            assert 'class="closest"' not in r.text, headers
        r = c.get("/", params={"token": TOKEN, "lang": "pl"}, headers={"Accept-Language": "uk"})
        assert '<html lang="pl">' in r.text and 'class="closest"' not in r.text
