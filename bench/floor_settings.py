"""Settings for the floor: Channels alone, no database, the same channel layer as the product."""

import os

SECRET_KEY = "floor-only-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["daphne", "channels"]
DATABASES: dict[str, dict[str, str]] = {}
ASGI_APPLICATION = "bench.floor.application"
USE_TZ = True

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # The product's own layer options, so the floor pays the same broadcast costs.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 1000}],
                "capacity": 500,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 500}}
    }
