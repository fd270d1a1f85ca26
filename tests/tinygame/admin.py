from django.contrib import admin

from rooms.admin import GameAdmin
from tests.tinygame.models import TallyRecord

admin.site.register(TallyRecord, GameAdmin)
