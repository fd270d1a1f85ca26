from django.apps import AppConfig


class CodenamesConfig(AppConfig):
    name = "codenames"

    def ready(self) -> None:
        from codenames.game import GAME
        from rooms.games import register

        register(GAME)
