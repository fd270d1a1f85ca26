from django.db import models

from rooms.models import GameRecord


class CodenamesGame(GameRecord):
    """A Codenames game: board, key, covers, clue log, proposals, turn, penalty, outcome."""

    # Public ids of everyone who held a spymaster seat in this game: they have seen the
    # key, so they may not become operatives until it ends.
    key_seen_by = models.JSONField(default=list)

    class Meta(GameRecord.Meta):
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="codenames_game_number")]

    def __str__(self) -> str:
        return f"Codenames #{self.number} in {self.room_id}"
