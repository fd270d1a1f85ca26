"""A catalogue of every screen ("scene") of both games, for every role.

Each scene is a room seeded straight in the database through the app's own paths (the
lobby's ``rooms.services`` functions and, for moves, ``rooms.play.act`` under the room's
lock, exactly as ``rooms.consumers.RoomConsumer.game_action`` runs them), plus whose
browser looks at it: a player's session, a spymaster's device link, or a visitor.

Used by ``tests/test_screens.py`` (usability and accessibility checks on phone and
laptop) and by ``bench/screenshots.py`` (``make screenshots``). Building a scene needs a
configured Django with the database reachable from the calling thread; a scene's moves
push their changes as the app does (after each commit), so call ``build_scene`` from a
thread with no running event loop (see ``in_thread``).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from rooms import changes

# Debian's Chromium, headless, as the browser tests and `make screenshots` launch it.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# ---- sizes ---------------------------------------------------------------------------------

PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
LAPTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
TV: dict[str, Any] = {"viewport": {"width": 1920, "height": 1080}}
# A smaller TV (or a 720p projector): the table view must fit this one too.
TV720: dict[str, Any] = {"viewport": {"width": 1280, "height": 720}}
SIZES: dict[str, dict[str, Any]] = {"phone": PHONE, "laptop": LAPTOP, "tv": TV, "tv720": TV720}
TV_SIZES: tuple[str, ...] = ("tv", "tv720")

LANGUAGES = ("en", "it")


# ---- what a scene is -----------------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """One screen: which room, which URL, whose browser, and what must be at hand.

    ``primary``: CSS selectors of the primary actions, each of which must be visible in
    the first screenful (the first match of each is checked). ``ready``: a Playwright
    selector that shows the page has drawn this scene's panel. ``extra``: facts a test may need (a
    card position, say). ``last_move``: a timed scene's move that starts its timer, made
    just before the page opens (``open_scene``), so the timer has not run out however long
    the other scenes took to seed; the page's clock is then frozen (a steady countdown).
    """

    name: str
    game: str
    language: str
    slug: str
    path: str
    session_key: str | None
    primary: tuple[str, ...]
    ready: str
    table: bool = False
    device: bool = False
    replay: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    last_move: Callable[[], None] | None = field(default=None, compare=False)

    @property
    def timed(self) -> bool:
        return self.last_move is not None

    def cookies(self, base_url: str) -> list[dict[str, Any]]:
        """The browser's cookies: its session (if a player) and the page language."""
        from django.conf import settings

        jar = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": self.language, "url": base_url}]
        if self.session_key:
            jar.append({"name": settings.SESSION_COOKIE_NAME, "value": self.session_key, "url": base_url})
        return jar

    def url(self, base_url: str) -> str:
        return base_url.rstrip("/") + self.path


# ---- seeding through the app's own paths ---------------------------------------------------


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def scene_move(slug: str, uid: str, message: dict[str, Any]) -> None:
    """A move by the player ``uid`` in room ``slug``: the same locked path a socket's game
    action takes (a test moves a scene on with it once its page is open)."""
    from rooms import play
    from rooms.errors import RoomError

    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        player = next(p for p in players if p.uid == uid)
        changes.remember(room, players=players)
        try:
            play.act(room, players, player, message)
        except RoomError as error:
            raise AssertionError(f"{slug}: {uid} {message} refused: {error.code}") from None


class SeededRoom:
    """A room whose players joined and sat through ``rooms.services``; moves via ``rooms.play``."""

    def __init__(self, slug: str, game: str, language: str, people: list[tuple[str, str, str]]) -> None:
        from rooms.models import Player
        from rooms.services import room_join, room_sit

        self.slug, self.game, self.language = slug, game, language
        self.uids: dict[str, str] = {}
        for name, team, role in people:
            uid = f"scene-{slug}-{name.lower()}"
            room_join(slug=slug, uid=uid, name=name, game=game, language=language)
            if role != Player.SPECTATOR:
                room_sit(slug=slug, uid=uid, team=team, role=role)
            self.uids[name] = uid
        ids = dict(Player.objects.filter(room__slug=slug).values_list("uid", "public_id"))
        self.ids = {name: ids[uid] for name, uid in self.uids.items()}
        self.names = {public_id: name for name, public_id in self.ids.items()}

    def add_bots(self, teams: tuple[str, ...]) -> None:
        """A bot seated at each of ``teams`` (named "Bot 1"…), added by the first person; the
        seeding moves it like anyone (``act``), ``bots_move`` lets it decide for itself."""
        from bots.seats import add_bot
        from rooms.models import Player

        for team in teams:
            add_bot(slug=self.slug, uid=next(iter(self.uids.values())), team=team, role="player")
        for uid, name, public_id in Player.objects.filter(room__slug=self.slug, bot=True).values_list(
            "uid", "name", "public_id"
        ):
            self.uids[name], self.ids[name], self.names[public_id] = uid, public_id, name

    def bots_move(self) -> int:
        """Every move the room's bots would make now, their think time taken as passed."""
        from bots import play as bot_play

        moves = 0
        while bot_play.step(time.time() + 3600, due=[self.slug]):
            moves += 1
        return moves

    def act(self, name: str, message: dict[str, Any]) -> None:
        """A move by ``name``: the same locked path a socket's game action takes."""
        scene_move(self.slug, self.uids[name], message)

    def act_as(self, public_id: str, message: dict[str, Any]) -> None:
        self.act(self.names[public_id], message)

    def state(self) -> dict[str, Any]:
        """The engine's saved state of the room's current game."""
        from rooms.games import get_game

        record = get_game(self.game).record.objects.filter(room__slug=self.slug).order_by("-number").first()
        assert record is not None, f"{self.slug}: no game dealt"
        data: dict[str, Any] = record.state
        return data

    def session(self, name: str) -> str:
        """A saved session for the player, as the browser holds after joining; its key."""
        from django.contrib.sessions.backends.db import SessionStore

        store = SessionStore()
        store["uid"], store["name"] = self.uids[name], name
        store.create()
        assert store.session_key
        return store.session_key

    def device_path(self, name: str) -> str:
        """The player's second-device link (created as the key-phone button does)."""
        from django.urls import reverse

        from rooms.models import Player
        from rooms.services import room_device_link

        room_device_link(slug=self.slug, uid=self.uids[name], regenerate=False)
        token = Player.objects.get(room__slug=self.slug, uid=self.uids[name]).device_token
        return str(reverse("device", args=[self.slug, token]))

    def scene(
        self,
        name: str,
        viewer: str | None,
        primary: tuple[str, ...],
        ready: str,
        *,
        table: bool = False,
        device: bool = False,
        extra: dict[str, Any] | None = None,
        last_move: Callable[[], None] | None = None,
    ) -> Scene:
        path = f"/r/{self.slug}/table/" if table else f"/r/{self.slug}/"
        if device:
            assert viewer is not None
            path = self.device_path(viewer)
        return Scene(
            name=name,
            game=self.game,
            language=self.language,
            slug=self.slug,
            path=path,
            session_key=self.session(viewer) if viewer and not device else None,
            primary=primary,
            ready=ready,
            table=table,
            device=device,
            extra=extra or {},
            last_move=None if last_move is None else _once(last_move),
        )

    def replay_scene(self, name: str) -> Scene:
        """The replay of the room's first game (over by now), opened at its last step."""
        return Scene(
            name=name,
            game=self.game,
            language=self.language,
            slug=self.slug,
            # Past the last frame: the page shows the last one.
            path=f"/r/{self.slug}/games/1/#step-9999",
            session_key=None,
            primary=("#replay-next",),
            ready="#replay-board > *",
            replay=True,
        )


def _once(move: Callable[[], None]) -> Callable[[], None]:
    """``move`` the first time only: a scene opened again (another size) keeps its moment."""
    done: list[bool] = []

    def run() -> None:
        if not done:
            done.append(True)
            move()

    return run


# ---- Codenames -----------------------------------------------------------------------------

CN_STANDARD = [
    ("Rosa", "red", "spymaster"),
    ("Rui", "red", "operative"),
    ("Rita", "red", "operative"),
    ("Bea", "blue", "spymaster"),
    ("Bo", "blue", "operative"),
    ("Sam", "", "spectator"),
]
CN_COOP = [("Sol", "red", "spymaster"), ("Oli", "red", "operative"), ("Ona", "red", "operative")]
CN_THREE = [("Rosa", "red", "spymaster"), ("Bea", "blue", "spymaster"), ("Oz", "red", "operative")]
CN_SPYMASTER = {"red": "Rosa", "blue": "Bea"}
CN_OPERATIVE = {"red": "Rui", "blue": "Bo"}

CN_CLUES = {
    "en": [
        "ocean",
        "music",
        "winter",
        "kitchen",
        "journey",
        "thunder",
        "garden",
        "silver",
        "animal",
        "speed",
    ],
    "it": ["oceano", "musica", "inverno", "cucina", "viaggio", "tuono", "giardino", "argento", "animale"],
}
CARD = ".board .card"
CARD_READY = ".board .card >> nth=24"


def _codenames_pack(language: str) -> list[str]:
    from codenames.services import WORDS_DIR
    from rooms.words import load_pack

    return list(load_pack(WORDS_DIR, language))


def longest_words(language: str, count: int = 25) -> list[str]:
    """The pack's longest words: a board that tests whether every card's word fits."""
    return sorted(_codenames_pack(language), key=lambda w: (-len(w), w))[:count]


class CodenamesRoom(SeededRoom):
    def __init__(
        self,
        slug: str,
        language: str,
        people: list[tuple[str, str, str]],
        *,
        long_words: bool = False,
        timer: bool = False,
    ) -> None:
        super().__init__(slug, "codenames", language, people)
        self.clues = iter(CN_CLUES.get(language, CN_CLUES["en"]) + CN_CLUES["en"])
        self.spymaster = {team: n for n, team, role in people if role == "spymaster"}
        self.operative: dict[str, str] = {}
        for n, team, role in people:
            if role == "operative":
                self.operative.setdefault(team, n)
        first = people[0][0]
        if long_words:
            # The room's own words (the lobby's word panel), all of them long.
            from rooms.services import room_set_words

            room_set_words(
                slug=slug, uid=self.uids[first], game="codenames", mode="own",
                text="\n".join(longest_words(language)),
            )  # fmt: skip
        if timer:
            # The sand timer (CN-24), long enough to outlast a screenshot run.
            self.act(
                first, {"action": "house_rules", "timer": True, "clue_seconds": 300, "guess_seconds": 300}
            )
        self.act(first, {"action": "start_game"})

    def agents(self, team: str) -> list[int]:
        state = self.state()
        return [i for i, who in enumerate(state["key"]) if who == team and state["covered_by"][i] is None]

    def hidden(self, identity: str) -> list[int]:
        state = self.state()
        return [i for i, who in enumerate(state["key"]) if who == identity and state["covered_by"][i] is None]

    def guesser(self, team: str) -> str:
        """The operative who guesses for ``team`` (the lone one in a three-player game)."""
        return self.operative.get(team) or next(iter(self.operative.values()))

    def clue(self, number: int | None) -> None:
        state = self.state()
        board = [_fold(w) for w, by in zip(state["words"], state["covered_by"], strict=True) if by is None]

        def clashes(word: str) -> bool:
            clue = _fold(word)
            return any(clue == w or (min(len(w), len(clue)) >= 3 and (clue in w or w in clue)) for w in board)

        word = next(w for w in self.clues if not clashes(w))
        spymaster = self.spymaster[state["team"]]
        self.act(spymaster, {"action": "give_clue", "turn": state["turn"], "word": word, "number": number})

    def propose(self, position: int, name: str | None = None) -> None:
        state = self.state()
        who = name or self.guesser(state["team"])
        self.act(who, {"action": "propose", "turn": state["turn"], "position": position})

    def guess(self, position: int, name: str | None = None) -> None:
        """Tap a card twice, as the page does: a proposal, then its confirmation."""
        state = self.state()
        who = name or self.guesser(state["team"])
        self.propose(position, who)
        self.act(who, {"action": "confirm", "turn": state["turn"], "position": position})

    def end_turn(self) -> None:
        state = self.state()
        self.act(self.guesser(state["team"]), {"action": "end_turn", "turn": state["turn"]})

    def opening(self) -> tuple[str, str]:
        """Two turns: the first team finds two agents and stops; the second finds one, then a
        bystander. Back to the first team's clue; returns (first team, second team)."""
        first = self.state()["team"]
        second = "blue" if first == "red" else "red"
        self.clue(2)
        for position in self.agents(first)[:2]:
            self.guess(position)
        self.end_turn()
        self.clue(2)
        self.guess(self.agents(second)[0])
        self.guess(self.hidden("bystander")[0])
        return first, second


def _cn_lobby(slug: str, language: str, *, viewer: str | None) -> Scene:
    room = SeededRoom(slug, "codenames", language, CN_STANDARD[:5])
    if viewer is None:
        return room.scene(
            "codenames-lobby-fresh-visitor", None, ("#join-name", "#join-button"), "#seats .team"
        )
    return room.scene("codenames-lobby-seated", viewer, ("#deal",), "#deal")


def cn_lobby_fresh_visitor(slug: str, language: str) -> Scene:
    return _cn_lobby(slug, language, viewer=None)


def cn_lobby_seated(slug: str, language: str) -> Scene:
    return _cn_lobby(slug, language, viewer="Rui")


def cn_spymaster_clue(slug: str, language: str) -> Scene:
    room = CodenamesRoom(slug, language, CN_STANDARD, long_words=True)
    first, _second = room.opening()
    return room.scene(
        "codenames-spymaster-clue", CN_SPYMASTER[first], ("#clue-word", "#clue-send"), "#clue-send"
    )


def cn_operative_waiting(slug: str, language: str) -> Scene:
    room = CodenamesRoom(slug, language, CN_STANDARD)
    _first, second = room.opening()
    return room.scene("codenames-operative-waiting", CN_OPERATIVE[second], (), CARD_READY)


def _guessing(slug: str, language: str, *, long_words: bool = False) -> tuple[CodenamesRoom, str, str, int]:
    """The first team's operative found one agent under a clue of 3 and proposes another."""
    room = CodenamesRoom(slug, language, CN_STANDARD, long_words=long_words)
    first, second = room.opening()
    room.clue(3)
    room.guess(room.agents(first)[0])
    proposed = room.agents(first)[0]
    room.propose(proposed)
    return room, first, second, proposed


def cn_operative_guess(slug: str, language: str) -> Scene:
    room, first, _second, proposed = _guessing(slug, language, long_words=True)
    target = next(p for p in room.agents(first) if p != proposed)
    return room.scene(
        "codenames-operative-guess",
        CN_OPERATIVE[first],
        ("#confirm-guess", "#end-turn", f"{CARD}[data-position='{proposed}']"),
        "#confirm-guess",
        extra={"proposed": proposed, "target": target, "team": first},
    )


def cn_spymaster_watching_guess(slug: str, language: str) -> Scene:
    room, first, _second, _proposed = _guessing(slug, language)
    return room.scene("codenames-spymaster-watching-guess", CN_SPYMASTER[first], (), CARD_READY)


def cn_opponent_spymaster_guess(slug: str, language: str) -> Scene:
    room, _first, second, _proposed = _guessing(slug, language)
    return room.scene(
        "codenames-opponent-spymaster-guess", CN_SPYMASTER[second], ("#referee-menu",), CARD_READY
    )


def cn_spectator(slug: str, language: str) -> Scene:
    room, _first, _second, _proposed = _guessing(slug, language)
    return room.scene("codenames-spectator", "Sam", (), CARD_READY)


def cn_table(slug: str, language: str) -> Scene:
    room, first, _second, proposed = _guessing(slug, language, long_words=True)
    # The move that reveals the proposed card, for a test to make with the TV watching.
    confirm = {"action": "confirm", "turn": room.state()["turn"], "position": proposed}
    extra = {"reveal": {"uid": room.uids[room.guesser(first)], "message": confirm}}
    return room.scene("codenames-table", None, (), CARD_READY, table=True, extra=extra)


def cn_table_lobby(slug: str, language: str) -> Scene:
    room = SeededRoom(slug, "codenames", language, CN_STANDARD)
    return room.scene("codenames-table-lobby", None, (), ".tv-lobby .tv-team", table=True)


def cn_table_late(slug: str, language: str) -> Scene:
    """Nine clues in the log (after the opening, six turns each lost on a bystander), the
    sand timer running."""
    room = CodenamesRoom(slug, language, CN_STANDARD, long_words=True, timer=True)
    room.opening()
    for _turn in range(6):
        room.clue(1)
        room.guess(room.hidden("bystander")[0])
    room.clue(2)
    room.guess(room.agents(room.state()["team"])[0])
    assert len(room.state()["log"]) >= 9
    return room.scene("codenames-table-late", None, (), CARD_READY, table=True)


def _cn_won(slug: str, language: str) -> tuple[CodenamesRoom, str]:
    """A game the first team won by finding all its agents under one clue."""
    room = CodenamesRoom(slug, language, CN_STANDARD)
    first, _second = room.opening()
    room.clue(None)
    for position in room.agents(first):
        room.guess(position)
    assert room.state()["winner"] == first
    return room, first


def cn_table_over(slug: str, language: str) -> Scene:
    room, _first = _cn_won(slug, language)
    return room.scene("codenames-table-over", None, (), CARD_READY, table=True)


def cn_key_phone(slug: str, language: str) -> Scene:
    room = CodenamesRoom(slug, language, CN_STANDARD, long_words=True)
    first, _second = room.opening()
    return room.scene(
        "codenames-key-phone",
        CN_SPYMASTER[first],
        (".board", "#clue-word", "#clue-send"),
        CARD_READY,
        device=True,
    )


def cn_game_over(slug: str, language: str) -> Scene:
    room, first = _cn_won(slug, language)
    return room.scene("codenames-game-over", CN_OPERATIVE[first], ("#next-game",), "#next-game")


def _coop(slug: str, language: str) -> CodenamesRoom:
    room = CodenamesRoom(slug, language, CN_COOP)
    assert room.state()["rules"]["mode"] == "coop"
    room.clue(2)
    room.guess(room.agents("red")[0])
    return room


def cn_coop_operative_guess(slug: str, language: str) -> Scene:
    room = _coop(slug, language)
    return room.scene("codenames-coop-operative-guess", "Oli", ("#end-turn",), "#end-turn")


def cn_coop_spymaster_opponent(slug: str, language: str) -> Scene:
    room = _coop(slug, language)
    room.end_turn()
    assert room.state()["phase"] == "opponent"
    return room.scene("codenames-coop-spymaster-opponent", "Sol", (f"{CARD}:enabled",), ".instruction")


def cn_three_operative(slug: str, language: str) -> Scene:
    room = CodenamesRoom(slug, language, CN_THREE)
    assert room.state()["rules"]["mode"] == "three"
    team = room.state()["team"]
    room.clue(2)
    room.propose(room.agents(team)[0], "Oz")
    return room.scene(
        "codenames-three-lone-operative", "Oz", ("#confirm-guess", "#end-turn"), "#confirm-guess"
    )


def cn_replay(slug: str, language: str) -> Scene:
    """A finished game on the pack's longest words: five bystanders touched (wrong guesses,
    struck), a long clue log, then a team finds all its agents under one clue."""
    room = CodenamesRoom(slug, language, CN_STANDARD, long_words=True)
    room.opening()
    for _turn in range(4):
        room.clue(1)
        room.guess(room.hidden("bystander")[0])
    team = room.state()["team"]
    room.clue(None)
    for position in room.agents(team):
        room.guess(position)
    assert room.state()["winner"] == team
    return room.replay_scene("codenames-replay")


# ---- Decrypto ------------------------------------------------------------------------------

DC_STANDARD = [
    ("Ann", "white", "player"),
    ("Amy", "white", "player"),
    ("Abe", "white", "player"),
    ("Bob", "black", "player"),
    ("Ben", "black", "player"),
    ("Bia", "black", "player"),
    ("Sam", "", "spectator"),
]
DC_THREE = [("Ann", "white", "player"), ("Amy", "white", "player"), ("Ivy", "black", "player")]

DC_CLUES = {
    "en": [
        "ocean", "bright", "silver", "old song", "winter", "speed", "kitchen", "secret", "thunder",
        "orbit", "velvet", "harbour light", "the thing at the bottom of every kitchen drawer",
        "marble", "circus", "paper", "whistle", "midnight", "ladder", "honey", "compass", "storm",
        "mirror image", "lantern", "breakfast", "glacier", "puzzle", "ribbon", "saddle", "tunnel",
        "feather", "volcano", "pocket", "cinema", "anchor chain", "pepper", "sunrise", "basket",
    ],
    "it": [
        "oceano", "luminoso", "argento", "vecchia canzone", "inverno", "velocità", "cucina",
        "segreto", "tuono", "orbita", "velluto", "luce del porto", "la cosa in fondo a ogni cassetto",
        "marmo", "circo", "carta", "fischio", "mezzanotte", "scala", "miele", "bussola", "tempesta",
        "immagine riflessa", "lanterna", "colazione", "ghiacciaio", "rompicapo", "nastro", "sella",
        "galleria", "piuma", "vulcano", "tasca", "cinema", "catena", "pepe", "alba", "cestino",
    ],
}  # fmt: skip
DC_NOTES = {
    "en": ["sea, water, blue things", "cold; maybe seasons?"],
    "it": ["mare, acqua, cose blu", "freddo; forse le stagioni?"],
}
DC_READY = ".dc-game"


class DecryptoRoom(SeededRoom):
    def __init__(
        self, slug: str, language: str, people: list[tuple[str, str, str]], bots: tuple[str, ...] = ()
    ) -> None:
        super().__init__(slug, "decrypto", language, people)
        if bots:
            self.add_bots(bots)
        words = DC_CLUES.get(language, DC_CLUES["en"])
        # Each team writes its own clues: Black reads the list from its middle.
        self.clue_words = {"white": words, "black": words[len(words) // 2 :] + words[: len(words) // 2]}
        self.used: dict[str, set[str]] = {"white": set(), "black": set()}
        self.act(people[0][0], {"action": "start_game"})
        state = self.state()
        notes = DC_NOTES.get(language, DC_NOTES["en"])
        for team in ("white", "black"):
            order = state["teams"][team]["order"]
            if order and state["teams"][team]["keywords"]:
                for position, text in enumerate(notes, start=1):
                    self.act_as(order[-1], {"action": "set_note", "position": position, "text": text})

    def member(self, team: str, *, guessing: bool = True) -> str:
        """A member of ``team`` who may guess now (not the Encryptor of the code guessed)."""
        state = self.state()
        turn = state["turns"][team]
        excluded = turn["encryptor"] if turn and guessing and state.get("guessing_for") == team else None
        return self.names[next(p for p in state["teams"][team]["order"] if p != excluded)]

    def encryptor(self, team: str) -> str:
        return self.names[self.state()["turns"][team]["encryptor"]]

    def fresh_clues(self, team: str) -> list[str]:
        keywords = {_fold(w) for w in self.state()["teams"][team]["keywords"]}
        picked = [w for w in self.clue_words[team] if _fold(w) not in keywords and w not in self.used[team]][
            :3
        ]
        self.used[team].update(picked)
        return picked

    def submit(self, team: str) -> None:
        state = self.state()
        self.act(
            self.encryptor(team),
            {
                "action": "submit_clues",
                "round": state["round"],
                "phase": "clues",
                "clues": self.fresh_clues(team),
            },
        )

    def submit_all(self) -> None:
        state = self.state()
        for team in ("white", "black"):
            turn = state["turns"][team]
            if turn is not None and not turn["submitted"]:
                self.submit(team)

    def lock(self, team: str, right: bool) -> None:
        state = self.state()
        target = state["guessing_for"]
        code = state["turns"][target]["code"]
        guess = code if right else [code[1], code[2], code[0]]
        message = {"action": "lock_guess", "round": state["round"], "phase": "guess",
                   "guessing_for": target, "code": guess}  # fmt: skip
        self.act(self.member(team), message)

    def guess_current(self, *, ok: dict[str, bool], intercept: dict[str, bool]) -> None:
        """Both teams lock their guesses of the code being guessed now."""
        state = self.state()
        target = state["guessing_for"]
        other = "black" if target == "white" else "white"
        if state["round"] > 1:
            self.lock(other, intercept.get(other, False))
        self.lock(target, ok.get(target, True))

    def play_round(
        self, *, ok: dict[str, bool] | None = None, intercept: dict[str, bool] | None = None
    ) -> None:
        self.submit_all()
        number = self.state()["round"]
        while (state := self.state())["phase"] == "guess" and state["round"] == number:
            self.guess_current(ok=ok or {}, intercept=intercept or {})


def _dc_midgame(slug: str, language: str) -> DecryptoRoom:
    """Two rounds with a token each way; round 3's clues not written yet."""
    room = DecryptoRoom(slug, language, DC_STANDARD)
    room.play_round()
    room.play_round(ok={"black": False}, intercept={"white": True})
    assert room.state()["phase"] == "clues" and room.state()["round"] == 3
    return room


def dc_replay(slug: str, language: str) -> Scene:
    """Six rounds: four quiet ones, then White intercepts twice (Black misreads once)."""
    room = DecryptoRoom(slug, language, DC_STANDARD)
    for _round in range(4):
        room.play_round()
    room.play_round(ok={"black": False}, intercept={"white": True})
    room.play_round(intercept={"white": True})
    assert room.state()["phase"] == "over"
    return room.replay_scene("decrypto-replay")


def dc_lobby_seated(slug: str, language: str) -> Scene:
    room = SeededRoom(slug, "decrypto", language, DC_STANDARD)
    return room.scene("decrypto-lobby-seated", "Ann", ("#dc-deal",), "#dc-deal")


def dc_encryptor_clues(slug: str, language: str) -> Scene:
    room = _dc_midgame(slug, language)
    # White's Encryptor is the late one: Black's clues start the 30 s timer (DC-8), so
    # they go in just before the page opens.
    return room.scene(
        "decrypto-encryptor-clues",
        room.encryptor("white"),
        ("#dc-clue-1", "#dc-submit-clues"),
        "#dc-clue-1",
        last_move=lambda: room.submit("black"),
    )


def dc_teammate_during_clues(slug: str, language: str) -> Scene:
    room = _dc_midgame(slug, language)
    state = room.state()
    teammate = next(p for p in state["teams"]["white"]["order"] if p != state["turns"]["white"]["encryptor"])
    return room.scene("decrypto-teammate-during-clues", room.names[teammate], (), DC_READY)


def dc_decipher(slug: str, language: str) -> Scene:
    room = DecryptoRoom(slug, language, DC_STANDARD)
    room.submit_all()
    assert room.state()["guessing_for"] == "white"
    return room.scene("decrypto-decipher", room.member("white"), ("#dc-lock-guess",), "#dc-lock-guess")


def _dc_guessing(slug: str, language: str) -> DecryptoRoom:
    room = _dc_midgame(slug, language)
    room.submit_all()
    assert room.state()["guessing_for"] == "white"
    return room


def dc_intercept(slug: str, language: str) -> Scene:
    room = _dc_guessing(slug, language)
    return room.scene("decrypto-intercept", room.member("black"), ("#dc-lock-guess",), "#dc-lock-guess")


def dc_intercept_bot(slug: str, language: str) -> Scene:
    """Black intercepts with a bot at its side: the bot's guess is offered, not filled in."""
    room = DecryptoRoom(slug, language, DC_STANDARD[:5], bots=("black",))
    room.play_round()
    room.play_round(ok={"black": False}, intercept={"white": True})
    room.submit_all()
    assert room.bots_move() == 1 and room.state()["guessing_for"] == "white"
    return room.scene("decrypto-intercept-bot", "Bob", ("#dc-lock-guess",), ".dc-suggestion")


def dc_spectator(slug: str, language: str) -> Scene:
    room = _dc_guessing(slug, language)
    return room.scene("decrypto-spectator", "Sam", (), DC_READY)


def dc_table(slug: str, language: str) -> Scene:
    room = _dc_guessing(slug, language)
    return room.scene("decrypto-table", None, (), DC_READY, table=True)


# What the room says while a TV shows its channel (?chat=1).
TABLE_CHAT = {
    "en": ["I think it's the ocean one again", "no idea, the thing at the bottom of a drawer?!", "👍"],
    "it": ["secondo me è ancora quella dell'oceano", "boh, la cosa in fondo a ogni cassetto?!", "👍"],
}


def dc_table_chat(slug: str, language: str) -> Scene:
    """The table view with the room's channel open (?chat=1): a spectator and a guesser talk."""
    from rooms.chat import chat_say

    room = _dc_guessing(slug, language)
    # Neither Encryptor: their codes are not revealed yet, the game keeps them quiet (DC rules).
    speakers = ["Sam", room.member("white"), "Sam"]
    for name, text in zip(speakers, TABLE_CHAT.get(language, TABLE_CHAT["en"]), strict=True):
        chat_say(slug=slug, uid=room.uids[name], channel="room", text=text)
    # Drawn when both the game (its module loads on its own) and the chat's lines are in.
    scene = room.scene(
        "decrypto-table-chat", None, (), "#room:has(.dc-sheets):has(.tv-chat-line)", table=True
    )
    return replace(scene, path=f"{scene.path}?chat=1")


def dc_table_late(slug: str, language: str) -> Scene:
    """Round 6: five rounds of clues and reveals on the table, round 6 being guessed."""
    room = DecryptoRoom(slug, language, DC_STANDARD)
    for _round in range(5):
        room.play_round()
    room.submit_all()
    assert room.state()["round"] == 6 and room.state()["phase"] == "guess"
    return room.scene("decrypto-table-late", None, (), DC_READY, table=True)


def dc_table_over(slug: str, language: str) -> Scene:
    room = DecryptoRoom(slug, language, DC_STANDARD)
    room.play_round()
    room.play_round(intercept={"white": True})
    room.play_round(intercept={"white": True})
    assert room.state()["phase"] == "over"
    return room.scene("decrypto-table-over", None, (), DC_READY, table=True)


def _dc_tiebreak(slug: str, language: str) -> DecryptoRoom:
    """Both teams miscommunicate twice: -2 against -2 goes to the keyword guessing (DC-23)."""
    room = DecryptoRoom(slug, language, DC_STANDARD)
    for _round in range(2):
        room.play_round(ok={"white": False, "black": False})
    assert room.state()["phase"] == "tiebreak"
    return room


def dc_tiebreak(slug: str, language: str) -> Scene:
    room = _dc_tiebreak(slug, language)
    return room.scene("decrypto-tiebreak", "Ann", ("#dc-tb-submit",), "#dc-tb-submit")


def dc_judging(slug: str, language: str) -> Scene:
    room = _dc_tiebreak(slug, language)
    state = room.state()
    for team, other in (("white", "black"), ("black", "white")):
        theirs = state["teams"][other]["keywords"]
        words = [theirs[0], theirs[1] + "s", "", "?"]  # a hit, a near miss to accept, a blank, a miss
        message = {"action": "tiebreak_guess", "round": state["round"], "phase": "tiebreak", "words": words}
        room.act(room.member(team, guessing=False), message)
    assert room.state()["phase"] == "judge"
    return room.scene("decrypto-judging", "Ann", ("#dc-judge",), "#dc-judge")


def _dc_over(slug: str, language: str, name: str, layout: list[tuple[str, str, str]], winner: str,
             viewer: str) -> Scene:  # fmt: skip
    """A game that ``winner`` wins by intercepting in rounds 2 and 3."""
    room = DecryptoRoom(slug, language, layout)
    room.play_round()
    room.play_round(intercept={winner: True})
    room.play_round(intercept={winner: True})
    assert room.state()["phase"] == "over"
    return room.scene(
        name, viewer, ("#dc-next-game",), "#dc-next-game", extra={"keywords": _dc_keywords(room)}
    )


def dc_game_over(slug: str, language: str) -> Scene:
    return _dc_over(slug, language, "decrypto-game-over", DC_STANDARD, "white", "Bob")


def _dc_keywords(room: DecryptoRoom) -> list[str]:
    """Every keyword of the game (both teams'), which the end shows everyone."""
    teams = room.state()["teams"]
    return [word for team in ("white", "black") for word in teams[team]["keywords"]]


def dc_interceptor_game_over(slug: str, language: str) -> Scene:
    """The Interceptor intercepts in rounds 2 and 3 and wins (DC-40)."""
    return _dc_over(slug, language, "decrypto-interceptor-game-over", DC_THREE, "black", "Ivy")


def _dc_interceptor(slug: str, language: str) -> DecryptoRoom:
    room = DecryptoRoom(slug, language, DC_THREE)
    assert room.state()["rules"]["mode"] == "interceptor"
    room.play_round()
    room.play_round(ok={"white": False})
    room.submit_all()
    assert room.state()["phase"] == "guess" and room.state()["round"] == 3
    return room


def dc_interceptor_intercepting(slug: str, language: str) -> Scene:
    room = _dc_interceptor(slug, language)
    return room.scene("decrypto-interceptor-intercepting", "Ivy", ("#dc-lock-guess",), "#dc-lock-guess")


def dc_interceptor_decipher(slug: str, language: str) -> Scene:
    room = _dc_interceptor(slug, language)
    return room.scene(
        "decrypto-interceptor-decipher", room.member("white"), ("#dc-lock-guess",), "#dc-lock-guess"
    )


# ---- the catalogue -------------------------------------------------------------------------

Builder = Callable[[str, str], Scene]
BUILDERS: dict[str, Builder] = {
    "codenames-lobby-fresh-visitor": cn_lobby_fresh_visitor,
    "codenames-lobby-seated": cn_lobby_seated,
    "codenames-spymaster-clue": cn_spymaster_clue,
    "codenames-operative-waiting": cn_operative_waiting,
    "codenames-operative-guess": cn_operative_guess,
    "codenames-spymaster-watching-guess": cn_spymaster_watching_guess,
    "codenames-opponent-spymaster-guess": cn_opponent_spymaster_guess,
    "codenames-spectator": cn_spectator,
    "codenames-table": cn_table,
    "codenames-table-lobby": cn_table_lobby,
    "codenames-table-late": cn_table_late,
    "codenames-table-over": cn_table_over,
    "codenames-key-phone": cn_key_phone,
    "codenames-game-over": cn_game_over,
    "codenames-coop-operative-guess": cn_coop_operative_guess,
    "codenames-coop-spymaster-opponent": cn_coop_spymaster_opponent,
    "codenames-three-lone-operative": cn_three_operative,
    "decrypto-lobby-seated": dc_lobby_seated,
    "decrypto-encryptor-clues": dc_encryptor_clues,
    "decrypto-teammate-during-clues": dc_teammate_during_clues,
    "decrypto-decipher": dc_decipher,
    "decrypto-intercept": dc_intercept,
    "decrypto-intercept-bot": dc_intercept_bot,
    "decrypto-spectator": dc_spectator,
    "decrypto-table": dc_table,
    "decrypto-table-late": dc_table_late,
    "decrypto-table-chat": dc_table_chat,
    "decrypto-table-over": dc_table_over,
    "decrypto-tiebreak": dc_tiebreak,
    "decrypto-judging": dc_judging,
    "decrypto-game-over": dc_game_over,
    "decrypto-interceptor-intercepting": dc_interceptor_intercepting,
    "decrypto-interceptor-decipher": dc_interceptor_decipher,
    "decrypto-interceptor-game-over": dc_interceptor_game_over,
}
SCENE_NAMES: tuple[str, ...] = tuple(BUILDERS)
TABLE_SCENES: tuple[str, ...] = tuple(name for name in SCENE_NAMES if "-table" in name)
# A finished game's replay page (no socket): shot by `make screenshots` on phones and TVs,
# checked by tests/rooms/test_history_browser.py rather than with the live screens.
REPLAY_BUILDERS: dict[str, Builder] = {"codenames-replay": cn_replay, "decrypto-replay": dc_replay}
BUILDERS.update(REPLAY_BUILDERS)
REPLAY_SCENES: tuple[str, ...] = tuple(REPLAY_BUILDERS)


def scene_slug(name: str, language: str, suffix: str = "") -> str:
    """A room name of its own for each scene, language and run (3–40 characters)."""
    short = name.replace("codenames-", "cn-").replace("decrypto-", "dc-")
    short = short.replace("interceptor", "icp").replace("spymaster", "spy").replace("operative", "op")
    slug = f"{short}-{language}{'-' + suffix if suffix else ''}"
    assert len(slug) <= 40, slug
    return slug


def build_scene(name: str, language: str = "en", suffix: str = "") -> Scene:
    """Seed the room of scene ``name`` in ``language`` (words and page) and describe it."""
    scene = BUILDERS[name](scene_slug(name, language, suffix), language)
    assert scene.name == name, (scene.name, name)
    return scene


def build_scenes(language: str = "en", suffix: str = "", names: tuple[str, ...] = SCENE_NAMES) -> list[Scene]:
    return [build_scene(name, language, suffix) for name in names]


T = TypeVar("T")


def in_thread(work: Callable[[], T]) -> T:
    """Run database work on a thread of its own, its connections closed afterwards.

    Sync Playwright keeps an event loop running in the test's thread, where the app's
    after-commit pushes (``async_to_sync``) cannot run.
    """

    def run() -> T:
        from django.db import connections

        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


# ---- opening a scene in a browser ----------------------------------------------------------


def open_scene(
    browser: Any,
    base_url: str,
    scene: Scene,
    size: dict[str, Any],
    prepare: Callable[[Any], None] | None = None,
) -> tuple[Any, Any]:
    """A fresh context at ``size`` holding the scene's cookies, its page loaded and live.

    ``prepare(page)`` runs before the page loads (a fake clock, a socket route). A timed
    scene's last move is made first; without a ``prepare`` of the caller's, its page's clock
    is frozen: the countdown then shows the time left at the page's last update and stays.
    Returns ``(context, page)``; the caller closes the context.
    """
    if scene.last_move is not None:
        in_thread(scene.last_move)
    context = browser.new_context(**size, locale="it-IT" if scene.language == "it" else "en-GB")
    context.add_cookies(scene.cookies(base_url))
    try:
        page = context.new_page()
        frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        if prepare is not None:
            prepare(page)
        elif scene.timed:
            # Date.now() stands still (timers still run): the page's server time is the
            # one of its last push, so the countdown reads the same in every shot.
            page.clock.set_fixed_time(time.time())
        page.goto(scene.url(base_url))
        if not scene.replay:
            page.wait_for_selector("#conn[data-state='open']", timeout=10000)
            # The socket's first state has been drawn, then the scene's own panel.
            for _ in range(200):
                if frames:
                    break
                page.wait_for_timeout(25)
        page.wait_for_selector(scene.ready, state="attached", timeout=10000)
        page.evaluate(
            "() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => r(0))))"
        )
    except BaseException:
        context.close()
        raise
    return context, page


def iter_sizes(scene: Scene) -> Iterator[str]:
    """The sizes a scene is shown at: phone and laptop; a table view and a replay also on
    both TVs."""
    yield "phone"
    yield "laptop"
    if scene.table or scene.replay:
        yield from TV_SIZES


def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent
