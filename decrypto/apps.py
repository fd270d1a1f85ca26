from django.apps import AppConfig


class DecryptoConfig(AppConfig):
    name = "decrypto"

    def ready(self) -> None:
        from decrypto.game import GAME
        from rooms.games import register

        register(GAME)
