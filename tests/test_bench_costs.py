"""`make bench` (bench/costs.py) runs and prints its figures for both games."""

from __future__ import annotations

import pytest

from bench.costs import Costs

pytestmark = pytest.mark.django_db(transaction=True)


def test_bench_costs_prints_queries_and_bytes_for_both_games() -> None:
    lines: list[str] = []
    Costs(out=lines.append).run(games=1)
    text = "\n".join(lines)
    assert "queries per confirm" in text and "bytes per whole state (spymaster)" in text
    assert "decrypto: queries per submit_clues" in text
    # Every game kept: the log's size per finished game, for both games.
    assert (
        "codenames: move log per finished bot game" in text
        and "decrypto: move log per finished bot game" in text
    )
