"""Bot teams against each other, through the pure engine (no database): the figures of
``manage.py bots selfplay``. Every bot gets the engine's own per-seat view, as in a room."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bots import associations
from bots.codenames import decide
from bots.decrypto import decide as decrypto_decide
from codenames import engine
from codenames.services import WORDS_DIR
from decrypto import engine as decrypto_engine
from decrypto.services import WORDS_DIR as DECRYPTO_WORDS
from rooms.words import load_pack

SEATS = {
    "standard": [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")],
    "coop": [("red", "spymaster"), ("red", "operative")],
    "three": [("red", "spymaster"), ("blue", "spymaster"), ("red", "operative")],
}
MOVES_MAX = 400


@dataclass
class Tally:
    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    turns: list[int] = field(default_factory=list)
    clue_numbers: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    stalled: int = 0

    def lines(self) -> list[str]:
        n = max(1, self.games)
        out = [
            f"games {self.games}  winners {dict(self.winners)}  reasons {dict(self.reasons)}",
            f"assassin rate {self.reasons['assassin'] / n:.3f}  stalled {self.stalled}",
            f"turns to the end: mean {statistics.mean(self.turns or [0]):.1f}"
            f"  clue number: mean {statistics.mean(self.clue_numbers or [0]):.2f}",
        ]
        if self.scores:
            out.append(f"co-operative wins {len(self.scores)}  score mean {statistics.mean(self.scores):.2f}")
        return out


def play_one(language: str, mode: str, seed: int, tally: Tally) -> None:
    table = associations.table("codenames", language)
    rng = random.Random(seed)
    words = rng.sample(list(load_pack(WORDS_DIR, language)), 25)
    state = engine.new_game(words=words, seed=seed, rules=engine.Rules(mode=engine.Mode(mode)))
    seats = [(f"bot{i}", team, role) for i, (team, role) in enumerate(SEATS[mode])]
    for _ in range(MOVES_MAX):
        if state.over:
            break
        for me, team, role in seats:
            view: dict[str, Any] = engine.view_for(state, sees_key=role == "spymaster")
            decision = decide(view, me, team, role, table)
            if decision is None:
                continue
            message, clue = decision
            if clue is not None:
                tally.clue_numbers.append(clue.number)
            seat_team = None if mode == "three" and role == "operative" else engine.Team(team)
            actor = engine.Actor(me, seat_team, engine.Role(role))
            state = engine.apply(state, actor, engine.action_from_json(message), now=0.0)
            break
        else:
            break  # nobody could move
    result = engine.outcome(state)
    tally.games += 1
    if result is None:
        tally.stalled += 1
        return
    tally.winners[result.winner.value if result.winner else "none"] += 1
    tally.reasons[result.reason] += 1
    tally.turns.append(state.turn)
    if result.score is not None:
        tally.scores.append(result.score)


def selfplay(language: str, mode: str, games: int, seed: int = 1) -> Tally:
    tally = Tally()
    for number in range(games):
        play_one(language, mode, seed * 100_000 + number, tally)
    return tally


@dataclass
class DecryptoTally:
    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    intercept_tries: int = 0
    intercepted: int = 0
    decipher_tries: int = 0
    miscommunicated: int = 0
    stalled: int = 0
    seconds: list[float] = field(default_factory=list)
    encrypt_seconds: list[float] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"games {self.games}  winners {dict(self.winners)}  reasons {dict(self.reasons)}",
            f"interception rate {self.intercepted / max(1, self.intercept_tries):.3f}"
            f" ({self.intercepted}/{self.intercept_tries})"
            f"  miscommunication rate {self.miscommunicated / max(1, self.decipher_tries):.3f}"
            f" ({self.miscommunicated}/{self.decipher_tries})",
            f"rounds to the end: mean {statistics.mean(self.rounds or [0]):.1f}  stalled {self.stalled}",
            f"ms per move: mean {1000 * statistics.mean(self.seconds or [0]):.1f}"
            f" (max {1000 * max(self.seconds or [0]):.1f})"
            f"  ms per Encryptor decision: mean {1000 * statistics.mean(self.encrypt_seconds or [0]):.1f}"
            f" (max {1000 * max(self.encrypt_seconds or [0]):.1f})",
        ]


DECRYPTO_SEATS = {"standard": (["w0", "w1"], ["b0", "b1"]), "interceptor": (["w0", "w1"], ["x0"])}


def play_decrypto(language: str, mode: str, seed: int, tally: DecryptoTally) -> None:
    table = associations.table("decrypto", language)
    white, black = DECRYPTO_SEATS[mode]
    state = decrypto_engine.new_game(
        words=list(load_pack(DECRYPTO_WORDS, language)),
        seed=seed,
        white=white,
        black=black,
        rules=decrypto_engine.Rules(mode=decrypto_engine.Mode(mode)),
    )
    for _ in range(MOVES_MAX):
        if state.phase is decrypto_engine.Phase.OVER:
            break
        for player in white + black:
            view = decrypto_engine.view_for(state, player=player)
            started = time.perf_counter()
            message = decrypto_decide(view, table, bots=white + black)
            if message is None:
                continue
            tally.seconds.append(time.perf_counter() - started)
            if message["action"] == "submit_clues":
                tally.encrypt_seconds.append(tally.seconds[-1])
            action = decrypto_engine.action_from_json(message)
            state = decrypto_engine.apply(state, player, action, now=0.0)
            break
        else:
            break  # nobody could move
    result = _decrypto_ended(tally, state)
    if result is None:
        return
    tally.reasons[result.reason] += 1
    for reveal in state.history:
        if reveal.interception is not None:
            tally.intercept_tries += 1
            tally.intercepted += reveal.intercepted
        tally.decipher_tries += 1
        tally.miscommunicated += not reveal.deciphered


def selfplay_decrypto(language: str, mode: str, games: int, seed: int = 1) -> DecryptoTally:
    tally = DecryptoTally()
    for number in range(games):
        play_decrypto(language, mode, seed * 100_000 + number, tally)
    return tally


@dataclass
class VersusTally:
    """The bot team's figures against a person-like team (``versus_person``): White is the
    bots' team, Black the person-like one."""

    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    intercept_tries: int = 0
    intercepted: int = 0
    decipher_tries: int = 0
    miscommunicated: int = 0
    their_tries: int = 0
    they_were_intercepted: int = 0
    stalled: int = 0
    encrypt_seconds: list[float] = field(default_factory=list)
    clues: list[tuple[str, str]] = field(default_factory=list)

    @property
    def interception_rate(self) -> float:
        return self.intercepted / max(1, self.intercept_tries)

    @property
    def miscommunication_rate(self) -> float:
        return self.miscommunicated / max(1, self.decipher_tries)

    def lines(self) -> list[str]:
        return [
            f"games {self.games}  winners {dict(self.winners)}  stalled {self.stalled}"
            f"  rounds to the end: mean {statistics.mean(self.rounds or [0]):.1f}",
            f"bot team intercepted {self.interception_rate:.3f} per try"
            f" ({self.intercepted}/{self.intercept_tries})"
            f"  miscommunication {self.miscommunication_rate:.3f}"
            f" ({self.miscommunicated}/{self.decipher_tries})",
            "bot team intercepting the person-like team:"
            f" {self.they_were_intercepted / max(1, self.their_tries):.3f}"
            f" ({self.they_were_intercepted}/{self.their_tries})",
            f"ms per Encryptor decision: mean {1000 * statistics.mean(self.encrypt_seconds or [0]):.1f}"
            f" (max {1000 * max(self.encrypt_seconds or [0]):.1f})",
        ]


def play_versus(
    language: str, seed: int, tally: VersusTally, *, profile: str = "person", teammate: str = "bot"
) -> None:
    """One standard game: White's two bots against two person-like players (one person's
    table, ``bots.person``). White's clues are always the bot Encryptor's; ``teammate``:
    who reads them, the other bot (the same table) or a person (another person's table).
    Each side counts only its own team as machines: the person-like players read White's
    clues with all they know, as people do."""
    from bots.person import person_table

    table = associations.table("decrypto", language)
    opponent = person_table(language, seed, profile)
    reader = table if teammate == "bot" else person_table(language, seed + 1_000_000_007, profile)
    white, black = ["w0", "w1"], ["b0", "b1"]
    state = decrypto_engine.new_game(
        words=list(load_pack(DECRYPTO_WORDS, language)), seed=seed, white=white, black=black
    )
    for _ in range(MOVES_MAX):
        if state.phase is decrypto_engine.Phase.OVER:
            break
        for player in white + black:
            view = decrypto_engine.view_for(state, player=player)
            ours = player in white
            encrypting = "clues" in view["seat"]["tasks"] and view["encryptor"] is not None
            seat_table = (table if encrypting else reader) if ours else opponent
            started = time.perf_counter()
            # A person-like reader on White: the Encryptor knows its teammates are people.
            machines = [player] if ours and encrypting and teammate != "bot" else white if ours else black
            message = decrypto_decide(view, seat_table, bots=machines)
            if message is None:
                continue
            if ours and message["action"] == "submit_clues":
                tally.encrypt_seconds.append(time.perf_counter() - started)
                keywords = view["teams"]["white"]["keywords"]
                code = view["encryptor"]["code"]
                tally.clues += [(keywords[d - 1], c) for d, c in zip(code, message["clues"], strict=True)]
            state = decrypto_engine.apply(state, player, decrypto_engine.action_from_json(message), now=0.0)
            break
        else:
            break  # nobody could move
    result = _decrypto_ended(tally, state)
    if result is None:
        return
    for reveal in state.history:
        if reveal.team is decrypto_engine.Team.WHITE:
            tally.decipher_tries += 1
            tally.miscommunicated += not reveal.deciphered
            if reveal.interception is not None:
                tally.intercept_tries += 1
                tally.intercepted += reveal.intercepted
        elif reveal.interception is not None:
            tally.their_tries += 1
            tally.they_were_intercepted += reveal.intercepted


def versus_person(
    language: str, games: int, seed: int = 1, *, profile: str = "person", teammate: str = "bot"
) -> VersusTally:
    """``games`` games of the bot team against person-like teams, a new person each game."""
    tally = VersusTally()
    for number in range(games):
        play_versus(language, seed * 100_000 + number, tally, profile=profile, teammate=teammate)
    return tally


@dataclass
class ReaderTally:
    """Bot teams whose codes are intercepted by the independent reader (``versus_reader``):
    interceptions per try by round, and the teams' own miscommunication."""

    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    tries: Counter[int] = field(default_factory=Counter)
    intercepted: Counter[int] = field(default_factory=Counter)
    decipher_tries: int = 0
    miscommunicated: int = 0
    stalled: int = 0
    clue_seconds: list[float] = field(default_factory=list)

    def rate(self, rounds: range) -> float:
        tries = sum(self.tries[r] for r in rounds)
        return sum(self.intercepted[r] for r in rounds) / max(1, tries)

    @property
    def miscommunication_rate(self) -> float:
        return self.miscommunicated / max(1, self.decipher_tries)

    def lines(self) -> list[str]:
        by_round = "  ".join(
            f"round {r} {self.rate(range(r, r + 1)):.3f} ({self.intercepted[r]}/{self.tries[r]})"
            for r in sorted(self.tries)
            if r <= 4
        )
        early = range(2, 5)
        return [
            f"games {self.games}  winners {dict(self.winners)}  stalled {self.stalled}"
            f"  rounds to the end: mean {statistics.mean(self.rounds or [0]):.1f}",
            f"intercepted by the reader per try: {by_round}",
            f"rounds 2-4 {self.rate(early):.3f}"
            f" ({sum(self.intercepted[r] for r in early)}/{sum(self.tries[r] for r in early)})"
            f"  all rounds {self.rate(range(2, 99)):.3f}",
            f"own-team miscommunication {self.miscommunication_rate:.3f}"
            f" ({self.miscommunicated}/{self.decipher_tries})",
            f"ms per clue: mean {1000 * statistics.mean(self.clue_seconds or [0]):.1f}"
            f" (max {1000 * max(self.clue_seconds or [0]):.1f})",
        ]


def play_reader(language: str, seed: int, tally: ReaderTally, *, with_table: bool = False) -> None:
    """One standard game of two bot teams in which every interception is the independent
    reader's (``bots.decrypto.read_intercept``, issue 32): the Encryptors and decipherers
    are the bots, the interceptors a person who knows what the independent source knows
    (``bots.people``: the reader and people's knowledge)."""
    from bots.decrypto import read_intercept
    from bots.people import people as people_of
    from bots.person import person_table

    table = associations.table("decrypto", language)
    people = people_of(language)
    # ``with_table``: the interceptor also holds a person-like table of the bots' own
    # associations (one person per game), the source and the common links together.
    also = person_table(language, seed) if with_table else None
    white, black = ["w0", "w1"], ["b0", "b1"]
    state = decrypto_engine.new_game(
        words=list(load_pack(DECRYPTO_WORDS, language)), seed=seed, white=white, black=black
    )
    for _ in range(MOVES_MAX):
        if state.phase is decrypto_engine.Phase.OVER:
            break
        for player in white + black:
            view = decrypto_engine.view_for(state, player=player)
            started = time.perf_counter()
            message = decrypto_decide(view, table, bots=white + black)
            if message is None:
                continue
            if message["action"] == "submit_clues":
                tally.clue_seconds.append((time.perf_counter() - started) / len(message["clues"]))
            team = view["seat"]["team"]
            if message["action"] == "lock_guess" and message["guessing_for"] != team:
                current = view["current"]
                message["code"] = list(
                    read_intercept(
                        people,
                        current["clues"],
                        view["sheets"][current["team"]],
                        view["teams"][team]["keywords"] or [],
                        also,
                    )
                )
            state = decrypto_engine.apply(state, player, decrypto_engine.action_from_json(message), now=0.0)
            break
        else:
            break  # nobody could move
    result = _decrypto_ended(tally, state)
    if result is None:
        return
    for reveal in state.history:
        tally.decipher_tries += 1
        tally.miscommunicated += not reveal.deciphered
        if reveal.interception is not None:
            tally.tries[reveal.round] += 1
            tally.intercepted[reveal.round] += reveal.intercepted


def versus_reader(language: str, games: int, seed: int = 1, *, with_table: bool = False) -> ReaderTally:
    """``games`` games of bot teams, every code intercepted by the independent source
    (and, ``with_table``, a person-like table beside it)."""
    tally = ReaderTally()
    for number in range(games):
        play_reader(language, seed * 100_000 + number, tally, with_table=with_table)
    return tally


def _decrypto_ended(tally: Any, state: Any) -> Any:
    """A Decrypto self-play game counted as played: its outcome, or None when it stalled."""
    tally.games += 1
    result = decrypto_engine.outcome(state)
    if result is None:
        tally.stalled += 1
        return None
    tally.winners["+".join(sorted(t.value for t in result.winners))] += 1
    tally.rounds.append(state.round)
    return result
