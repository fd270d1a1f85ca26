"""Test settings: the same app, with static files served from the source folders."""

from .settings import *  # noqa: F403
from .settings import INSTALLED_APPS, STORAGES, _env_bool

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The pytest process drives deadlines itself (rooms.clock.sweep); a test server started
# as a subprocess turns its clock on with GAME_CLOCK=1.
GAME_CLOCK = _env_bool("GAME_CLOCK", False)

# Every test client comes from 127.0.0.1, and counts in Redis outlive a run: the limits
# are off unless a test turns them on (tests/rooms/test_limits.py), or RATE_LIMITS=true.
RATE_LIMITS_ENABLED = _env_bool("RATE_LIMITS", False)

# A game that exists only in the tests (tests/tinygame/): adding a game to the site is
# this one line, which tests/rooms/test_plugin_game.py proves by playing it.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.tinygame"]

# Test databases come and go under one prefix: the claim on the Redis prefix
# (rooms/deployment.py) is off unless a test turns it on, or DEPLOYMENT_GUARD=true.
DEPLOYMENT_GUARD = _env_bool("DEPLOYMENT_GUARD", False)
