from django.apps import AppConfig


class DecryptoConfig(AppConfig):
    name = "decrypto"

    def ready(self) -> None:
        from rooms.games import register

        from decrypto.game import GAME

        register(GAME)
