from django.db import models

from rooms.models import GameRecord


class DecryptoGame(GameRecord):
    """A Decrypto game: keywords, codes, drafts, notes, reveals, tokens, outcome."""

    # Public id -> the room team ("white"/"black") each player sat at when the game was
    # dealt. The rosters are fixed for the whole game, and in the Interceptor variant the
    # engine's "white" (the team of two) may sit at the room's black seats.
    seat_teams = models.JSONField(default=dict)

    class Meta(GameRecord.Meta):
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="decrypto_game_number")]

    def __str__(self) -> str:
        return f"Decrypto #{self.number} in {self.room_id}"
