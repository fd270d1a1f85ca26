"""System checks for a deployment's settings (``manage.py check --deploy`` runs them)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from limits import parse


@register(Tags.security, deploy=True)
def production_needs_redis(app_configs: Any, **kwargs: Any) -> list[Warning]:
    if settings.DEBUG or settings.REDIS_URL:
        return []
    return [
        Warning(
            "DEBUG is off and REDIS_URL is not set.",
            hint=(
                "Several server processes will not hear each other's moves (a player sees them "
                "seconds late), and the limits per address are counted per process. One process "
                "on a LAN may ignore this; a site with several processes needs Redis."
            ),
            id="rooms.W001",
        )
    ]


@register()
def log_format_is_known(app_configs: Any, **kwargs: Any) -> list[Warning]:
    # The formats the site's logging knows come with the settings (LOG_FORMATS): rooms/ is
    # the ground floor and imports nothing of the project's config/.
    formats = getattr(settings, "LOG_FORMATS", ("text",))
    if getattr(settings, "LOG_FORMAT", "text") in formats:
        return []
    return [
        Warning(
            f"LOG_FORMAT={settings.LOG_FORMAT!r} is not a known format: logs are written as text.",
            hint=f"Use one of: {', '.join(formats)}.",
            id="rooms.W002",
        )
    ]


@register()
def limits_parse(app_configs: Any, **kwargs: Any) -> list[Error]:
    """A limit written wrong (``LIMIT_ROOMS_PER_IP=30 an hour``) would limit nothing."""
    errors = []
    for name, value in getattr(settings, "RATE_LIMITS", {}).items():
        try:
            parse(value)
        except ValueError:
            errors.append(
                Error(
                    f"The limit {name} is {value!r}, which is not a rate: it limits nothing.",
                    hint="Write a count per period, e.g. 30/hour, 120/minute or 5/second.",
                    id="rooms.E001",
                )
            )
    return errors
