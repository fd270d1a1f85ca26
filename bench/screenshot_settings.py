"""`make screenshots`' settings: the test settings (static files from the source folders,
no clock unless asked) without the game that exists only in the tests, which would
otherwise show on the home page as a third game."""

from config.settings_test import *  # noqa: F403
from config.settings_test import INSTALLED_APPS

INSTALLED_APPS = [app for app in INSTALLED_APPS if app != "tests.tinygame"]
