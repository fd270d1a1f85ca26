import secrets
from datetime import timedelta
from typing import Any

from django.db import models


def _public_id() -> str:
    return secrets.token_hex(5)


class Room(models.Model):
    """A place to play, created by its first player at ``/r/<slug>/``."""

    slug = models.SlugField(max_length=40, unique=True)
    # A registered game's name (rooms.games); set when the room is made (services.room_join).
    game = models.CharField(max_length=20)
    # Bumped in the same transaction as every change a player can see, so each push
    # carries it and a client that sees a gap asks for the whole state.
    version = models.PositiveBigIntegerField(default=1)
    language = models.CharField(max_length=10, default="en")
    settings = models.JSONField(default=dict, blank=True)
    scoreboard = models.JSONField(default=dict, blank=True)
    # The number of the room's last line of table talk (``ChatMessage.seq``), raised under
    # the room's lock: lines are numbered 1, 2, 3… in the order they were said.
    chat_seq = models.PositiveBigIntegerField(default=0, db_default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class Player(models.Model):
    """One browser in one room, known by the ``uid`` its session carries."""

    SPECTATOR = "spectator"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="players")
    # The browser's secret identity (from its session): never sent to other players.
    uid = models.CharField(max_length=64)
    # What other players and the game engines know this player by.
    public_id = models.CharField(max_length=12, default=_public_id, unique=True)
    name = models.CharField(max_length=24)
    # The player's personal link for a second device (a spymaster's key on a phone,
    # CN-S3): whoever holds it acts as this player in this room. 256 bits; regenerating
    # it revokes the old link at once.
    device_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    team = models.CharField(max_length=12, blank=True, default="")
    role = models.CharField(max_length=12, default=SPECTATOR)
    # A spectator who chose to watch ("Just watch"), unlike a newcomer who has not sat
    # down yet: "Shuffle teams" deals newcomers into the teams, never watchers.
    watching = models.BooleanField(default=False)
    # An AI teammate (bots/): seated by a player, driven by the server's clock, never connected.
    bot = models.BooleanField(default=False)
    # Open sockets, on every live server process: the sum of the player's ``Presence``
    # rows, kept in the same transaction as they are (rooms.presence). ``last_seen``:
    # when a process last vouched for a socket of theirs (every 20 s while one is open).
    connections = models.IntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["room", "uid"], name="one_player_per_browser")]

    def __str__(self) -> str:
        return f"{self.name} in {self.room_id}"

    @property
    def is_seated(self) -> bool:
        return self.role != self.SPECTATOR


class ChatMessage(models.Model):
    """A line of table talk (rooms/chat.py): said in the room's channel or a team's."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat")
    # "room", or "team:<team>" (that team's seated players read it).
    channel = models.CharField(max_length=24)
    # The author as they were: a player removed later leaves their words and name.
    author = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    author_public_id = models.CharField(max_length=12)
    author_name = models.CharField(max_length=24)
    text = models.CharField(max_length=280)
    # Its place in the room's talk (``Room.chat_seq`` when it was said): a process that
    # missed lines reads the ones after the last it delivered; the trim keeps the newest.
    # 0: a line stored before lines were numbered.
    seq = models.PositiveBigIntegerField(default=0, db_default=0)
    # A team line's readers, fixed when it was said: the public ids of the people seated
    # in that team then, as ",id,id," (one LIKE finds a reader on every database).
    # Empty for a room line (everyone in the room reads it) and for a team line stored
    # before readers were kept (then nobody: a secret is kept rather than guessed).
    readers = models.TextField(blank=True, default="", db_default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room", "id"]
        indexes = [
            models.Index(fields=["room", "channel", "-id"], name="chat_by_channel"),
            models.Index(fields=["room", "seq"], name="chat_by_seq"),
        ]

    def __str__(self) -> str:
        # No text: this names the line in the admin's pages and its log of deletions,
        # where a team's line of a running game must not show.
        return f"{self.author_name} in {self.channel} (line {self.pk})"


class GameRecord(models.Model):
    """One game of a room, as its engine saved it after the last action (abstract).

    ``state`` is the engine's whole JSON, so a restart resumes exactly; the other columns
    are copies kept for queries (the room's current game, the clock's sweep).
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="%(app_label)s_games")
    number = models.PositiveIntegerField()
    # 128 random bits as a decimal string. The board or keywords and every secret derive
    # from it, and the engines are open source: a small seed could be searched from what
    # the table shows. It never leaves the server; the engine keeps a copy in ``state``.
    seed = models.CharField(max_length=40)
    state = models.JSONField()
    finished = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # What each bot clue meant, by its place in the clue log ("SEAT 2 → saddle, bench"):
    # intended words are secret until the game is over, when the views show them.
    bot_notes = models.JSONField(default=dict, blank=True)
    # Steps in this game's move log (``GameMove``; the deal is step 0): kept beside the
    # state it made, so appending a step costs no read.
    steps = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
        ordering = ["room", "-number"]


class GameMove(models.Model):
    """One step of a game's move log (rooms/history.py), written in the transaction that
    applied it: the deal (step 0), a player's move as sent, or a passed deadline.

    The engine's state stays the one source for resuming; the log is what replays,
    exports and stats read. It holds secrets (the deal's key or keywords, a team's
    drafts): served only once its game is over.
    """

    DEAL, MOVE, DEADLINE = "deal", "move", "deadline"

    # The room's composite index below serves the foreign key (a room's deletion too).
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="moves", db_index=False)
    # The game's name and its record's number (the record lives in the game's own app).
    game = models.CharField(max_length=20)
    number = models.PositiveIntegerField()
    step = models.PositiveIntegerField()
    kind = models.CharField(max_length=8)
    # The seat as it acted (empty for the deal and for deadlines).
    player = models.CharField(max_length=12, blank=True, default="")
    name = models.CharField(max_length=24, blank=True, default="")
    team = models.CharField(max_length=12, blank=True, default="")
    role = models.CharField(max_length=12, blank=True, default="")
    bot = models.BooleanField(default=False)
    # A move: the action as sent (without ``ref``). The deal: the engine's first state
    # and the seats ({"state": …, "seats": […]}).
    action = models.JSONField(default=dict)
    # The engine's clock for this step (Unix seconds, exact): replaying needs the same ``now``.
    at = models.FloatField()
    # The room version this step's change made.
    version = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["room", "game", "number", "step"]
        constraints = [
            models.UniqueConstraint(fields=["room", "game", "number", "step"], name="one_move_per_step")
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.number} step {self.step}: {self.kind}"


def room_identity(pk: int, created_at: Any) -> str:
    """Which room a row is, for pushes between processes: its key and creation stamp (a
    room closed and created again under the same name, even with a reused key on SQLite,
    is another room)."""
    return f"{pk}.{int(created_at.timestamp() * 1_000_000)}"


class ServerProcess(models.Model):
    """A server process that counts sockets (rooms.presence): alive while it beats.

    Its key is chosen by the process; ``beat_at`` is the database's own clock at its
    last beat, so processes on hosts whose clocks differ are judged alike.
    """

    key = models.CharField(max_length=32, primary_key=True)
    name = models.CharField(max_length=100, blank=True, default="")  # host:pid, for operators
    started_at = models.DateTimeField(auto_now_add=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.name or self.key


class Presence(models.Model):
    """How many sockets of one player one server process holds open.

    No database-level foreign keys: a process dropped as dead may still write one row
    before it learns so (rooms.presence heals that), and the previous release's code,
    which knows nothing of this table, must still be able to delete players and rooms
    during a rolling upgrade.
    """

    # The unique constraint's index serves this key (a process's rows), so none of its own.
    process = models.ForeignKey(ServerProcess, on_delete=models.DO_NOTHING, db_constraint=False,
                                db_index=False, related_name="+")  # fmt: skip
    player = models.ForeignKey(Player, on_delete=models.CASCADE, db_constraint=False, related_name="+")
    sockets = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["process", "player"], name="one_count_per_process")]

    def __str__(self) -> str:
        return f"{self.sockets} of player {self.player_id} on {self.process_id}"


class Receipt(models.Model):
    """A move's idempotency id (``id`` in docs/protocol.md), kept once the move is applied.

    Written in the transaction of the move, under the room's row lock, and read under it:
    a page that resends a move after a restart (possibly to another process) has it
    applied at most once. The database rather than Redis: the check and the move commit
    together, and a setup without Redis keeps the guarantee. Like ``Presence``, no
    database-level foreign key: the previous release's code, which knows nothing of this
    table, must still be able to delete players and rooms during a rolling upgrade.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="+")  # fmt: skip
    key = models.CharField(max_length=64)
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "key"], name="one_receipt_per_move")]

    def __str__(self) -> str:
        return f"move {self.key} of player {self.player_id}"


# How long a count that no live process's row backs (one left by the previous release's
# code) may go unvouched before the clock's sweep lowers it (rooms.presence).
PRESENCE_GRACE = timedelta(seconds=60)


def is_connected(player: Player, now: Any = None) -> bool:
    """Whether the player has a socket open on a live server process.

    No clock is read: a count goes down when a socket closes, when its process is found
    dead or when a process re-asserts its sockets after an outage (rooms.presence), so a
    database that was away does not make anyone look away when it returns. (A page pings
    after 2.5 s without a frame while its player can act, 15 s otherwise, and calls its
    connection lost 2.5 s later, then opens a new socket; the server counts a socket
    until it closes.)
    """
    return player.connections > 0
