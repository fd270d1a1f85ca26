"""The committed association tables and evaluation sets, and the measuring commands."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from bots import associations
from codenames.engine.clues import board_conflict
from rooms.words import load_pack

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "it", "pt-br", "ca", "sv"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pack_word_has_its_own_associations(language: str) -> None:
    pack = load_pack(str(ROOT / "codenames" / "words"), language)
    table = associations.table("codenames", language)
    assert table.language == language
    missing = [w for w in pack if w not in table.words]
    assert not missing, missing[:10]
    for word, linked in table.words.items():
        assert len(linked) >= 10, (word, len(linked))
        for association, _weight in linked:
            # An association is a legal clue with its own card on the board (CN-10).
            assert board_conflict(association, [word], multi_word=True) is None, (word, association)


@pytest.mark.parametrize("language", LANGUAGES)
def test_evaluate_prints_the_operatives_accuracy_last(language: str) -> None:
    out = io.StringIO()
    pairs = ROOT / "bots" / "eval" / f"codenames-{language}.tsv"
    call_command("bots", "evaluate", str(pairs), "--lang", language, "--boards", "1", stdout=out)
    last = out.getvalue().splitlines()[-1].split()
    assert last[0::2] == ["top1", "top2", "n"]
    top1, top2, n = float(last[1]), float(last[3]), int(last[5])
    assert 0 <= top1 <= top2 <= 1 and n >= 30


@pytest.mark.parametrize("language", LANGUAGES)
def test_spymaster_clues_on_random_boards(language: str) -> None:
    out = io.StringIO()
    call_command("bots", "clues", "--lang", language, "--boards", "5", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 6 and lines[-1].startswith("mean number ")
    assert all("→" in line for line in lines[:-1])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mode", ["standard", "coop", "three"])
def test_bot_teams_finish_every_selfplay_game(language: str, mode: str) -> None:
    from bots.selfplay import selfplay

    tally = selfplay(language, mode, games=3, seed=7)
    assert tally.games == 3 and tally.stalled == 0
    assert sum(tally.reasons.values()) == 3
