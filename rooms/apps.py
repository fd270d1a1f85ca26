from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"

    def ready(self) -> None:
        from rooms import changes, checks, hub  # noqa: F401  (checks: registers the system checks)

        # A committed change is pushed through this process's hub (and Redis).
        changes.set_publisher(hub.publish)
