from django.db import models

from rooms.models import GameRecord


class TallyRecord(GameRecord):
    class Meta(GameRecord.Meta):
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="tally_game_number")]
