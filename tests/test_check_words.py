"""`pan check`'s ruling is one sentence of the reader's language, not pieces joined by English
punctuation: in Japanese the ruling and the condition are joined by 、 and the reason follows ：."""

from __future__ import annotations

import subprocess

from helpers import PAN, child_env


def check(*cards: str, lang: str) -> str:
    return subprocess.run([*PAN, "check", *cards], capture_output=True, text=True,
                          env={**child_env(), "PANCLI_LANG": lang, "COLUMNS": "80"}).stdout


def test_japanese_ruling_is_joined_as_japanese_is_written():
    legal = check("5S", "5S", "5S", lang="ja").splitlines()[1]
    assert "、" in legal and ", " not in legal
    refused = check("5S", "6S", "7H", lang="ja").splitlines()[1]
    assert "：" in refused and ": " not in refused


def test_english_ruling_reads_as_before():
    assert check("5S", "5S", "5S", lang="en").splitlines()[1].startswith("  legal set, ")
    assert check("5S", "6S", "7H", lang="en").splitlines()[1].startswith("  not legal: ")
