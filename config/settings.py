"""Settings for the word-game rooms.

Everything that differs between a laptop and production comes from the environment;
with nothing set, the app runs on a SQLite file and the in-memory channel layer.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.logs import FORMATS, logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or default


DEBUG = _env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    # Only ever used on a developer's machine: DEBUG defaults on and nothing is public.
    SECRET_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"
# Rotation: the new key in SECRET_KEY, the old one here (comma-separated) until the
# sessions signed with it no longer matter (docs/operations.md).
SECRET_KEY_FALLBACKS = _env_list("SECRET_KEY_FALLBACKS", [])

# Never "*": the WebSocket Origin check reads this list, and a wildcard would let any
# site open a socket with a visitor's session cookie.
ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    # The operators' admin at /admin/ (a superuser from `manage.py createsuperuser`).
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rooms",
    "codenames",
    "decrypto",
    "bots",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    "config.middleware.FriendlyNotFoundMiddleware",
    "config.middleware.DatabaseAwayMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # 0 for HTTP requests: under ASGI each runs on a thread of its own, which would
        # leave its connection open. The sockets' database threads keep theirs (below).
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not :memory:, so a test server in another process sees the same rows.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_DB_NAME") or str(BASE_DIR / "test_db.sqlite3")
    }
    # Several writers (daphne threads) on one file: wait for the lock instead of failing.
    # WAL lets readers work beside the writer and makes a commit one write, not two.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
else:
    # Explicit, so nothing prefixes "test_" twice in a forked live server.
    DATABASES["default"]["TEST"] = {"NAME": "test_" + DATABASES["default"]["NAME"]}

# Threads for database work from the sockets (rooms.db); 0: one on SQLite, two otherwise.
DB_THREADS = int(os.environ.get("DB_THREADS", "0"))
# Their connections persist (opening a PostgreSQL connection per call cost a tenth of the
# server's time under load).
DB_POOL_CONN_MAX_AGE = int(os.environ.get("DB_POOL_CONN_MAX_AGE", "600"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Every Redis key and Pub/Sub channel of this deployment starts with this prefix, so
# deployments that share one Redis server (production and staging, say) never hear or
# count each other: Pub/Sub ignores database numbers.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "wordrooms")
# The prefix is claimed by this deployment's database (rooms/deployment.py): a process on
# another database refuses to start on it.
DEPLOYMENT_GUARD = True
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pushes between server processes (rooms.bus) use this Redis address and key:
            # Redis Pub/Sub, each process subscribed once to each room it serves. The
            # list-based layer spent four round trips and a Lua script on every push;
            # nothing here needs stored messages (a process that missed a push catches
            # up from the database within seconds).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": 1000,
                        # redis-py 8 gives reads a 5 s timeout by default: an idle
                        # subscription would be torn down every 5 s. Connecting still gives up.
                        "socket_timeout": None,
                        "socket_connect_timeout": 5,
                    }
                ],
                # A push carries every view of a room, secrets included, to the other
                # server processes: encrypted on Redis, readable only with SECRET_KEY.
                "symmetric_encryption_keys": [SECRET_KEY],
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 500}}
    }

SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_SAMESITE = "Lax"

# Deployed (DEBUG off) the site is served over TLS by a reverse proxy: secure cookies,
# HTTP redirected to HTTPS, HSTS. A game night on a LAN without TLS opts out with
# TLS=false (then `check --deploy` rightly warns about all four). SECURE_COOKIES=false
# (the older switch) still turns off the secure cookies alone.
TLS = not DEBUG and _env_bool("TLS", True)
SESSION_COOKIE_SECURE = TLS and _env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = TLS
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(60 * 60 * 24 * 365))) if TLS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = _env_bool("HSTS_PRELOAD", False)
if not SECURE_HSTS_PRELOAD:
    # Asking browsers to preload the domain is its owner's decision (HSTS_PRELOAD=true).
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
# The proxy tells Daphne the request came over HTTPS (README: X-Forwarded-Proto).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The largest form is the join form (a name and a game): no request body needs more.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 50

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("it", "Italiano"),
    ("pt-br", "Português (Brasil)"),
    ("ca", "Català"),
    ("sv", "Svenska"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `manage.py collectstatic` writes the minified, hashed files WhiteNoise serves.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "config.storage.StaticStorage"
        )
    },
}
# Under Daphne in development there is no runserver static handler: WhiteNoise serves
# straight from the apps' folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Prometheus metrics at /metrics on each process's own port (rooms/metrics.py); never
# through the proxy.
METRICS = _env_bool("METRICS", False)

# Each server process checks its rooms' versions against the database this often (a push
# lost to a Redis outage heals within it).
PUSH_CHECK_SECONDS = float(os.environ.get("PUSH_CHECK_SECONDS", "5"))

# Presence (rooms/presence.py): a process that holds sockets beats this often; one that
# has not beaten for PRESENCE_DEAD_SECONDS (the database's clock) is dropped as dead by
# the others, each of which judges only once it has beaten itself without a gap for
# PRESENCE_JUDGE_SECONDS (after an outage every process gets that long to beat again).
PRESENCE_BEAT_SECONDS = float(os.environ.get("PRESENCE_BEAT_SECONDS", "1"))
PRESENCE_DEAD_SECONDS = float(os.environ.get("PRESENCE_DEAD_SECONDS", "2.5"))
PRESENCE_JUDGE_SECONDS = float(os.environ.get("PRESENCE_JUDGE_SECONDS", "5"))

# Every line with its time (UTC), level and logger; LOG_FORMAT=json for a log collector
# (config/logs.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOG_FORMATS = FORMATS  # the known ones, for the system check (rooms/checks.py)
# ACCESS_LOG: a line per request and per socket (config/access.py), whatever LOG_LEVEL.
LOGGING = logging_config(
    LOG_FORMAT, os.environ.get("LOG_LEVEL", "WARNING"), access=_env_bool("ACCESS_LOG", False)
)

# The clock (rooms/clock.py: deadlines, bots, presence, purge) as a thread of this
# process: on for `make run`; false for the Daphne processes of a site that runs
# `manage.py clock` once (deploy/systemd/).
GAME_CLOCK = _env_bool("GAME_CLOCK", True)

# Rooms idle this long are deleted by the clock (and `manage.py purge_rooms`).
ROOM_RETENTION_DAYS = int(os.environ.get("ROOM_RETENTION_DAYS", "30"))

# Limits per IP address (rooms.limits); RATE_LIMITS=false turns them all off. Counted in
# Redis when REDIS_URL is set (shared by every process), in memory otherwise. The
# defaults let a dozen players behind one home router play, reconnect and reload freely.
RATE_LIMITS_ENABLED = _env_bool("RATE_LIMITS", True)
RATE_LIMITS_STORAGE = REDIS_URL or "memory://"
# Caps per room: people (players and watchers; "room_full" past it) and bots ("too_many_bots").
MAX_PLAYERS_PER_ROOM = int(os.environ.get("MAX_PLAYERS_PER_ROOM", "100"))
MAX_BOTS_PER_ROOM = int(os.environ.get("MAX_BOTS_PER_ROOM", "8"))
# A move whose tap (its "at") is older than this when it arrives is refused ("too_late"):
# it was held by a dead network and would land on a board that has moved on.
MOVE_MAX_AGE_SECONDS = float(os.environ.get("MOVE_MAX_AGE_SECONDS", "6"))
# An AI teammate waits this long after the room's last change before its move (human pace).
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", "2.5"))

RATE_LIMITS = {
    "rooms_per_ip": os.environ.get("LIMIT_ROOMS_PER_IP", "30/hour"),
    "rooms_per_session": os.environ.get("LIMIT_ROOMS_PER_SESSION", "10/hour"),
    "handshakes_per_ip": os.environ.get("LIMIT_HANDSHAKES_PER_IP", "120/minute"),
    "device_failures_per_ip": os.environ.get("LIMIT_DEVICE_FAILURES_PER_IP", "20/minute"),
    # Operators' sign-in attempts (each wrong password costs a third of a second of CPU).
    "admin_logins_per_ip": os.environ.get("LIMIT_ADMIN_LOGINS_PER_IP", "10/minute"),
    # Lines of table talk across all of a browser's sockets (any room), and across all of
    # an address's: one browser with a hundred sockets says no more than one with one.
    "chat_lines_per_session": os.environ.get("LIMIT_CHAT_LINES_PER_SESSION", "10/10seconds"),
    "chat_lines_per_ip": os.environ.get("LIMIT_CHAT_LINES_PER_IP", "30/10seconds"),
}
# Counted per server process: held for a socket's life / checked on every frame.
LIMIT_OPEN_SOCKETS_PER_IP = int(os.environ.get("LIMIT_OPEN_SOCKETS_PER_IP", "60"))
LIMIT_MESSAGES_PER_IP = float(os.environ.get("LIMIT_MESSAGES_PER_IP", "60"))
