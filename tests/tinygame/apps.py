from django.apps import AppConfig


class TinyGameConfig(AppConfig):
    """A game that exists only in the tests: adding it touched INSTALLED_APPS alone."""

    name = "tests.tinygame"
    label = "tinygame"

    def ready(self) -> None:
        from rooms.games import register
        from tests.tinygame.game import GAME

        register(GAME)
