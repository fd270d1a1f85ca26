from django.db import models

from rooms.models import Room


class DecryptoGame(models.Model):
    """One game in a room: the engine's whole state, saved after every action.

    ``state`` is the engine's own JSON (keywords, codes, drafts, notes, history, deadline,
    outcome), so a restart resumes exactly. The other columns are copies kept for queries
    (the timer sweep, the room's current game) or room facts the engine does not know.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="decrypto_games")
    number = models.PositiveIntegerField()
    # 128 random bits as a decimal string: every keyword and code derives from the seed,
    # so it must be unguessable (a player could otherwise search seeds for their own
    # keywords and learn the opponents'), and 128 bits do not fit a BigIntegerField.
    # The engine keeps its own copy inside ``state``; this one is for an operator.
    seed = models.CharField(max_length=40)
    state = models.JSONField()
    # Public id -> the room team ("white"/"black") each player sat at when the game was
    # dealt. The rosters are fixed for the whole game, and in the Interceptor variant the
    # engine's "white" (the team of two) may sit at the room's black seats.
    seat_teams = models.JSONField(default=dict)
    finished = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["room", "-number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="decrypto_game_number")]

    def __str__(self) -> str:
        return f"Decrypto #{self.number} in {self.room_id}"
