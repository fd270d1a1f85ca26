from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"

    def ready(self) -> None:
        # rooms/ knows bots only through what is registered here.
        from bots import play
        from bots.seats import GAMES, add_bot_action, remove_bot_action
        from rooms.clock import register_player
        from rooms.games import offer_bots
        from rooms.lobby import register_lobby_action

        for name in GAMES:
            offer_bots(name)
        register_lobby_action("add_bot", add_bot_action)
        register_lobby_action("remove_bot", remove_bot_action)
        register_player(play)  # bots move on the site's clock
