"""One rule for a stored payment against the core's (app/replay.py `payment_matches`: payer,
payee and chips, and code and parameters unless the stored payment predates codes), read from
three shapes: `same_payment` (one Payment; `pan import` of a copy), `same_payments` (an event's
Payments: every event of an import) and `pan db check`'s over raw rows (app/check/verify.py).
This test holds the three readings to the rule, payment by payment."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pancli.app.check.verify import _same_payments as same_payment_rows
from pancli.app.replay import same_payment, same_payments
from pancli.core.ledger import NO_PARAMS, Params, Payment
from pancli.core.rows import PaymentRow
from pancli.storage.mapping import stored_payment

PLAYERS = st.sampled_from(["Ana", "Ben", "pool"])
PARAMS = st.sampled_from([NO_PARAMS, Params(n=1), Params(n=2), Params(cards=["7D", "7D"])])


@st.composite
def payment(draw, old: bool = False) -> Payment:
    code = draw(st.sampled_from([None, "meld", "out"] if old else ["meld", "out"]))
    return Payment(draw(PLAYERS), draw(PLAYERS), draw(st.integers(1, 3)), code,
                   draw(PARAMS) if code is not None else NO_PARAMS)


def row(p: Payment) -> list[object]:
    """The payment as `pan db check` reads it: a list in the fields of PaymentRow."""
    return [1, 1, 1, 1, p.payer, p.payee, p.chips, "why", p.code,
            p.params.to_json() if p.code is not None else None]


@st.composite
def changed(draw, p: Payment) -> Payment:
    """The payment, or the same with one field changed."""
    what = draw(st.sampled_from(["same"] * 8 + ["payer", "payee", "chips", "code", "params", "older"]))
    payer, payee, chips, code, params = p.payer, p.payee, p.chips, p.code, p.params
    if what == "payer":
        payer = draw(PLAYERS)
    elif what == "payee":
        payee = draw(PLAYERS)
    elif what == "chips":
        chips = draw(st.integers(1, 3))
    elif what == "code":
        code = draw(st.sampled_from(["meld", "out"]))
    elif what == "params":
        params = draw(PARAMS)
    elif what == "older":  # stored by pancli 0.1: no code, no parameters
        code, params = None, NO_PARAMS
    return Payment(payer, payee, chips, code, params)


@st.composite
def stored_and_computed(draw) -> tuple[list[Payment], list[Payment]]:
    computed = draw(st.lists(payment(), max_size=3))
    if draw(st.integers(0, 4)) == 0:  # unrelated
        return draw(st.lists(payment(old=True), max_size=3)), computed
    stored = [draw(changed(p)) for p in computed]  # near the core's: fields changed here and there
    if stored and draw(st.integers(0, 3)) == 0:
        stored.pop(draw(st.integers(0, len(stored) - 1)))
    return stored, computed


@settings(max_examples=300)
@given(stored_and_computed())
def test_the_three_payment_comparers_agree(pair):
    stored, computed = pair
    one_by_one = len(stored) == len(computed) and all(same_payment(a, b) for a, b in zip(stored, computed))
    assert same_payments(stored, computed) == one_by_one
    rows = [row(p) for p in stored]
    assert [stored_payment(PaymentRow._make(r)) for r in rows] == stored  # the rows are the payments
    assert same_payment_rows(rows, computed) == one_by_one


def test_an_older_payment_is_compared_by_players_and_chips():
    old, now = Payment("Ana", "Ben", 2, None), Payment("Ana", "Ben", 2, "meld", Params(n=1))
    assert same_payments([old], [now]) and same_payment_rows([row(old)], [now]) and same_payment(old, now)
    assert not same_payments([now], [old])  # the core always gives a code
