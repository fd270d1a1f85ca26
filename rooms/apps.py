from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"

    def ready(self) -> None:
        from rooms import checks  # noqa: F401  (registers the system checks)
