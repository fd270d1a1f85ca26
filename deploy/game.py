"""A whole Codenames game played by sockets, every move waited for on every socket.

The spymasters read the key from their own view (what their browsers are sent); each
clue is for two of the team's agents and the operative confirms them (a proposal, then
the confirmation), then ends the turn; the first team to cover all its agents wins.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from deploy.client import Player

MOVE_TIMEOUT = 10.0
CLUES = ["zorbly", "quixum", "flarnish", "gromple", "snivvet", "plovix", "trazzle", "wumbat",
         "kestrifle", "vornish", "blemtic", "yaddlex", "frobnic", "glimber", "zentrop"]  # fmt: skip


class MoveFailed(Exception):
    pass


class MoveUnanswered(MoveFailed):
    """The mover saw neither the move's effect nor an error about it."""


class MoveRefused(MoveFailed):
    """The move was answered with an error."""


class MoveStalled(MoveFailed):
    """The move was answered, but not every socket caught up with it in time."""


@dataclass
class GameFigures:
    moves: int = 0
    seen_ms: list[float] = field(default_factory=list)  # until every socket held the move
    winner: str | None = None
    clues_used: set[str] = field(default_factory=set)


async def until(condition: Any, timeout: float, what: str) -> None:
    deadline = perf_counter() + timeout
    while not condition():
        if perf_counter() > deadline:
            raise MoveFailed(f"gave up after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.002)


def signature(state: dict[str, Any]) -> str:
    """The room as a move changes it: the game and the seats, not who is connected."""
    players = [{k: v for k, v in p.items() if k != "connected"} for p in state.get("players") or []]
    return json.dumps([state.get("play"), players], sort_keys=True)


async def move(
    mover: Player,
    everyone: list[Player],
    message: dict[str, Any],
    figures: GameFigures,
    every_version: bool = True,
) -> None:
    """Send ``message``; wait until it made a version and every socket holds it.

    ``every_version``: each socket must have held that very version (not only a later
    state, as a socket that reconnected meanwhile is sent). Like a player, the mover taps
    only while its page is live (the page takes no tap while its socket is down).
    """
    await until(lambda: mover.live, MOVE_TIMEOUT, f"{mover.name}'s socket to be live")
    before = signature(mover.state)
    started = perf_counter()
    ref = await mover.send(message)
    # Its effect, not just a new version: a presence push may bump the room meanwhile.
    try:
        await until(
            lambda: signature(mover.state) != before or ref in mover.errors, MOVE_TIMEOUT, f"{message}"
        )
    except MoveFailed as failure:
        raise MoveUnanswered(f"{mover.name}: {failure}") from None
    if ref in mover.errors:
        raise MoveRefused(f"{mover.name}: {message} refused: {mover.errors[ref]}")
    version = mover.version
    try:
        await until(lambda: all(p.version >= version for p in everyone), MOVE_TIMEOUT, f"version {version}")
    except MoveFailed as failure:
        raise MoveStalled(str(failure)) from None
    figures.seen_ms.append((perf_counter() - started) * 1000)
    figures.moves += 1
    missing = [p.name for p in everyone if version not in p.versions]
    if missing and every_version:
        raise MoveFailed(f"version {version} skipped by {missing}")


async def turn_step(
    spymasters: dict[str, Player],
    operatives: dict[str, Player],
    everyone: list[Player],
    figures: GameFigures,
    every_version: bool = True,
) -> None:
    """The next move of the game, by whoever's it is (the red spymaster's view is the oracle)."""
    play = spymasters["red"].play
    team, turn = play["team"], play["turn"]
    words = {card["word"].lower() for card in play["cards"]}
    agents = [c["position"] for c in play["cards"] if c["identity"] == team and not c["covered"]]
    if play["phase"] == "clue":
        fresh = [w for w in CLUES if w not in words and w not in figures.clues_used]
        if not fresh:  # a long game: made-up clues may come round again
            figures.clues_used.clear()
            fresh = [w for w in CLUES if w not in words]
        word = fresh[0]
        figures.clues_used.add(word)
        clue = {"action": "give_clue", "turn": turn, "word": word, "number": min(2, len(agents))}
        await move(spymasters[team], everyone, clue, figures, every_version)
    elif play["phase"] == "guess" and play["guesses_made"] < play["clue"]["number"]:
        card = {"turn": turn, "position": agents[0]}
        await move(operatives[team], everyone, {"action": "propose", **card}, figures, every_version)
        await move(operatives[team], everyone, {"action": "confirm", **card}, figures, every_version)
    elif play["phase"] == "guess":
        await move(operatives[team], everyone, {"action": "end_turn", "turn": turn}, figures, every_version)
    else:
        raise MoveFailed(f"unexpected phase {play['phase']!r}")


async def play_codenames(
    spymasters: dict[str, Player], operatives: dict[str, Player], everyone: list[Player]
) -> GameFigures:
    figures = GameFigures()
    await move(spymasters["red"], everyone, {"action": "start_game"}, figures)
    for _ in range(200):
        play = spymasters["red"].play
        if play.get("phase") == "over":
            figures.winner = play.get("winner")
            return figures
        await turn_step(spymasters, operatives, everyone, figures)
    raise MoveFailed("the game did not end within 200 moves")


async def until_the_bot_moves(
    spymasters: dict[str, Player], operatives: dict[str, Player], everyone: list[Player], bot_team: str
) -> float:
    """Deal and play until the bot operative of ``bot_team`` (moved by the clock process,
    whose push reaches the sockets through Redis) has acted; seconds it took to act."""
    figures = GameFigures()
    await move(spymasters["red"], everyone, {"action": "start_game"}, figures)
    for _ in range(20):
        play = spymasters["red"].play
        if play["phase"] == "guess" and play["team"] == bot_team:
            started, version = perf_counter(), max(p.version for p in everyone)
            await until(lambda v=version: all(p.version > v for p in everyone), 30.0, "the bot's move")
            return perf_counter() - started
        await turn_step(spymasters, operatives, everyone, figures)
    raise MoveFailed("the bot's team never came to guess")


@dataclass
class Tally:
    """What games played through a rolling restart met."""

    unanswered: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    stalled: list[str] = field(default_factory=list)


async def keep_playing(
    spymasters: dict[str, Player],
    operatives: dict[str, Player],
    everyone: list[Player],
    figures: GameFigures,
    tally: Tally,
    stop: asyncio.Event,
    pace: float = 0.5,
) -> None:
    """Play game after game until ``stop``, a move every ``pace`` seconds or so (people
    tapping, not a flood); every move's fate goes into ``tally``."""
    while not stop.is_set():
        await asyncio.sleep(pace * (0.5 + random.random()))
        play = spymasters["red"].play
        try:
            if not play or play.get("phase") == "over":
                figures.clues_used.clear()  # a new board: the made-up clues are free again
                await move(spymasters["red"], everyone, {"action": "start_game"}, figures, False)
            else:
                await turn_step(spymasters, operatives, everyone, figures, False)
        except MoveUnanswered as failure:
            tally.unanswered.append(str(failure))
        except MoveRefused as failure:
            tally.refused.append(str(failure))
            await asyncio.sleep(0.2)  # the oracle's view catches up
        except MoveFailed as failure:
            tally.stalled.append(str(failure))
        except (KeyError, IndexError, TypeError) as error:  # a view caught mid-reconnect
            tally.stalled.append(f"{type(error).__name__}: {error}")
            await asyncio.sleep(0.2)
