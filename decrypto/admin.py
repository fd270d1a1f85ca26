from django.contrib import admin

from decrypto.models import DecryptoGame
from rooms.admin import GameAdmin

admin.site.register(DecryptoGame, GameAdmin)
