"""A whole Codenames game played by sockets, every move waited for on every socket.

The spymasters read the key from their own view (what their browsers are sent); each
clue is for two of the team's agents and the operative confirms them (a proposal, then
the confirmation), then ends the turn; the first team to cover all its agents wins.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from deploy.client import Player

MOVE_TIMEOUT = 10.0
CLUES = ["zorbly", "quixum", "flarnish", "gromple", "snivvet", "plovix", "trazzle", "wumbat",
         "kestrifle", "vornish", "blemtic", "yaddlex", "frobnic", "glimber", "zentrop"]  # fmt: skip


class MoveFailed(Exception):
    pass


@dataclass
class GameFigures:
    moves: int = 0
    seen_ms: list[float] = field(default_factory=list)  # until every socket held the move
    winner: str | None = None


async def until(condition: Any, timeout: float, what: str) -> None:
    deadline = perf_counter() + timeout
    while not condition():
        if perf_counter() > deadline:
            raise MoveFailed(f"gave up after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.002)


async def move(mover: Player, everyone: list[Player], message: dict[str, Any], figures: GameFigures) -> None:
    """Send ``message``; wait until it made a version and every socket holds it."""
    before = mover.version
    started = perf_counter()
    ref = await mover.send(message)
    await until(lambda: mover.version > before or ref in mover.errors, MOVE_TIMEOUT, f"{message}")
    if ref in mover.errors:
        raise MoveFailed(f"{mover.name}: {message} refused: {mover.errors[ref]}")
    version = mover.version
    await until(lambda: all(p.version >= version for p in everyone), MOVE_TIMEOUT, f"version {version}")
    figures.seen_ms.append((perf_counter() - started) * 1000)
    figures.moves += 1
    missing = [p.name for p in everyone if version not in p.versions]
    if missing:
        raise MoveFailed(f"version {version} skipped by {missing}")


async def play_codenames(
    spymasters: dict[str, Player], operatives: dict[str, Player], everyone: list[Player]
) -> GameFigures:
    figures = GameFigures()
    clues = iter(CLUES)
    await move(spymasters["red"], everyone, {"action": "start_game"}, figures)
    for _ in range(200):
        play = spymasters["red"].play
        if play.get("phase") == "over":
            figures.winner = play.get("winner")
            return figures
        team, turn = play["team"], play["turn"]
        words = {card["word"].lower() for card in play["cards"]}
        agents = [c["position"] for c in play["cards"] if c["identity"] == team and not c["covered"]]
        if play["phase"] == "clue":
            word = next(w for w in clues if w not in words)
            clue = {"action": "give_clue", "turn": turn, "word": word, "number": min(2, len(agents))}
            await move(spymasters[team], everyone, clue, figures)
        elif play["phase"] == "guess" and play["guesses_made"] < play["clue"]["number"]:
            position = agents[0]
            operative = operatives[team]
            await move(
                operative, everyone, {"action": "propose", "turn": turn, "position": position}, figures
            )
            confirm = {"action": "confirm", "turn": turn, "position": position}
            await move(operative, everyone, confirm, figures)
        elif play["phase"] == "guess":
            await move(operatives[team], everyone, {"action": "end_turn", "turn": turn}, figures)
        else:
            raise MoveFailed(f"unexpected phase {play['phase']!r}")
    raise MoveFailed("the game did not end within 200 moves")
