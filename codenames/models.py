from django.db import models

from rooms.models import Room


class CodenamesGame(models.Model):
    """One game in a room: the engine's whole state, saved after every action.

    ``state`` is the engine's own JSON (board, key, covers, clue log, proposals, turn,
    penalty, deadline, outcome), so a restart resumes exactly. The other columns are
    copies kept for queries (the timer sweep, the room's current game).
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="codenames_games")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    state = models.JSONField()
    # Public ids of everyone who held a spymaster seat in this game: they have seen the
    # key, so they may not become operatives until it ends.
    key_seen_by = models.JSONField(default=list)
    finished = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["room", "-number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="codenames_game_number")]

    def __str__(self) -> str:
        return f"Codenames #{self.number} in {self.room_id}"
