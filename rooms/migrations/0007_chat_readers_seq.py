"""Lines of table talk get their readers and their number in the room (issue 28).

Additive only: every new column has a database default, so a process still running the
previous release inserts lines and rooms as before during a rolling upgrade.
"""

from typing import Any

from django.db import migrations, models


def number_lines(apps: Any, schema_editor: Any) -> None:
    """Number each room's kept lines 1, 2, 3… in the order they were said."""
    room_model = apps.get_model("rooms", "Room")
    line_model = apps.get_model("rooms", "ChatMessage")
    rooms = line_model.objects.values_list("room_id", flat=True).distinct()
    for room_id in list(rooms):
        ids = list(line_model.objects.filter(room_id=room_id).order_by("id").values_list("id", flat=True))
        for seq, pk in enumerate(ids, start=1):
            line_model.objects.filter(pk=pk).update(seq=seq)
        room_model.objects.filter(pk=room_id).update(chat_seq=len(ids))


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0006_move_log"),
    ]

    operations = [
        migrations.AddField(
            model_name="chatmessage",
            name="readers",
            field=models.TextField(blank=True, db_default="", default=""),
        ),
        migrations.AddField(
            model_name="chatmessage",
            name="seq",
            field=models.PositiveBigIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name="room",
            name="chat_seq",
            field=models.PositiveBigIntegerField(db_default=0, default=0),
        ),
        migrations.AddIndex(
            model_name="chatmessage",
            index=models.Index(fields=["room", "seq"], name="chat_by_seq"),
        ),
        migrations.RunPython(number_lines, migrations.RunPython.noop, elidable=True),
    ]
