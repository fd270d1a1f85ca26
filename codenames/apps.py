from django.apps import AppConfig


class CodenamesConfig(AppConfig):
    name = "codenames"

    def ready(self) -> None:
        from rooms.games import register

        from codenames.game import GAME

        register(GAME)
