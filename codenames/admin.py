from django.contrib import admin

from codenames.models import CodenamesGame
from rooms.admin import GameAdmin

admin.site.register(CodenamesGame, GameAdmin)
