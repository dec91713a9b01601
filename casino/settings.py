"""All settings, read from the environment, in one module.

With nothing set, the service runs on its embedded default: a SQLite file in the project
folder, Celery tasks executed in-process and a local-memory cache. DATABASE_URL and REDIS_URL
switch to PostgreSQL and Redis; CASINO_ENV=production refuses anything unsafe for a casino floor.
"""

from __future__ import annotations

import os
import zoneinfo
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from casino.environment import (
    SQLITE_OPTIONS,
    checked_redis_url,
    database_from_url,
    env_flag,
    env_int,
    replica_database,
)
from casino.production import refuse_unsafe_field_key, refuse_unsafe_production

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CASINO_VAR_DIR", BASE_DIR / "var"))

CASINO_ENV = os.environ.get("CASINO_ENV", "development").strip().lower()
DEVELOPMENT_SECRET_KEY = "development-only-secret-key-never-use-on-a-casino-floor"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
DEBUG = env_flag("DEBUG", default=False)
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    # Channels' runserver: `manage.py runserver` serves HTTP and websockets in one process.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "django_htmx",
    "tables",
    "devices",
    "reports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Django's, with the storage made only for a request that reads or adds a message.
    "casino.middleware.messages.LazyMessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, so that a lockout flagged by any login turns into the uniform refusal.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
if DATABASE_URL:
    DATABASES = {"default": database_from_url(DATABASE_URL)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "casino.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Under the ASGI server each request runs in a thread of its own, so connections kept per
# thread pile up: `make serve` sets DATABASE_POOL_SIZE and each worker process shares a pool.
DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 0)
if DATABASE_POOL_SIZE and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].update(CONN_MAX_AGE=0, CONN_HEALTH_CHECKS=False)
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 1, "max_size": DATABASE_POOL_SIZE, "timeout": 10,
    }  # fmt: skip
# A streaming replica of the primary for the reports' reads (casino/db_router.py,
# docs/scale-out.md): the reports read from it, every write and transaction stays on the primary.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "").strip()
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = replica_database(DATABASE_REPLICA_URL, DATABASES["default"])
DATABASE_ROUTERS = ["casino.db_router.ReplicaRouter"]
# How long a report waits for the replica to replay the primary's log up to the moment it
# starts before it reads from the primary instead.
CASINO_REPLICA_MAX_WAIT_SECONDS = env_int("CASINO_REPLICA_MAX_WAIT_SECONDS", 5)

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    checked_redis_url(REDIS_URL)
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery -----------------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Without a broker the embedded default runs every task in-process, at once.
CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 15 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 14 * 60)
# A report job killed mid-way must run again, not vanish: acknowledge only when done.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# If a whole worker machine dies, Redis hands its unacknowledged jobs out again after this
# long: longer than any job may run, so a slow job is never run twice at once.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * CELERY_TASK_TIME_LIMIT}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {"reports.tasks.*": {"queue": "reports"}}
CELERY_RESULT_EXTENDED = True
CELERY_TIMEZONE = "UTC"

# --- Time -------------------------------------------------------------------------------
USE_TZ = True
TIME_ZONE = "UTC"  # storage and the API speak UTC; the floor's local time is below
CASINO_TIME_ZONE = os.environ.get("CASINO_TIME_ZONE", "Europe/Madrid")
try:
    zoneinfo.ZoneInfo(CASINO_TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(
        "CASINO_TIME_ZONE must be an IANA time zone such as Europe/Madrid; "
        f"got {CASINO_TIME_ZONE!r}."
    ) from None
CASINO_GAMING_DAY_ROLLOVER = os.environ.get("CASINO_GAMING_DAY_ROLLOVER", "06:00")
CASINO_SHIFTS = os.environ.get("CASINO_SHIFTS", "day=06:00,swing=14:00,grave=22:00")
# The floor's staff read Spanish, Brazilian Portuguese or English. Pages, refusals and documents
# are translated at the edge; the engine speaks in codes and parameters only.
LANGUAGE_CODE = os.environ.get("CASINO_LANGUAGE", "en")
LANGUAGES = [("es", "Español"), ("pt-br", "Português (Brasil)"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language a printed report is rendered in when a download asks for none (?lang=, then
# Accept-Language, come first): es, pt-br or en.
CASINO_REPORT_LANGUAGE = os.environ.get("CASINO_REPORT_LANGUAGE", LANGUAGE_CODE)
USE_I18N = True

# --- API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tables.auth_tokens.TokenAuthentication",  # knox's tokens, checked in one query
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "casino.api_errors.uniform_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # DRF's, answering a plain JSON client's Accept header without parsing it.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "casino.api_negotiation.JSONFirstNegotiation",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino table service",
    "DESCRIPTION": "Live Siete y Medio and Seven-Card Stud tables: dealer tablet, pit boss, "
    "card-reading shoe, shift accounting and end-of-shift reports.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Corrections and role grants share one review cycle: one enum in the schema.
    "ENUM_NAME_OVERRIDES": {
        "ReviewStatusEnum": "tables.models.corrections.CorrectionRequest.Status"
    },
}

# --- Pages and live updates -------------------------------------------------------------
# Pushes carry only "table N changed at seq S"; each page re-reads its own fragment over HTTP,
# so what a viewer sees is decided by the same read as the page itself. The one drawing pushed
# is the floor's tile, which shows no card, to the pit bosses only (tables.pages.floor_drawing).
# A socket waits for its next message in a blocking pop of 5 s; the Redis client's own read
# timeout is 5 s by default too, so without a longer one every idle socket's wait ends in a
# timeout error that drops its websocket.
CHANNEL_LAYER_READ_TIMEOUT_SECONDS = 30
CHANNEL_LAYER_CAPACITY = env_int("CHANNEL_LAYER_CAPACITY", 1000)
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis, taking a process's waiting messages in one round trip, not four
            # per message (tables/live/channel_layer.py).
            "BACKEND": "tables.live.channel_layer.BatchReceiveLayer",
            "CONFIG": {
                "hosts": [
                    {"address": REDIS_URL, "socket_timeout": CHANNEL_LAYER_READ_TIMEOUT_SECONDS}
                ],
                "prefix": "casino:live:",
                # All the sockets of one web process share one Redis key, which holds at
                # most `capacity` undelivered messages: a notice batch to a process with 50
                # tablets and the floor pages open passes channels-redis's default of 100.
                "capacity": CHANNEL_LAYER_CAPACITY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "landing"
LOGOUT_REDIRECT_URL = "login"
# A tablet whose clock is further than this from the server's raises an alert for the pit.
CASINO_TABLET_CLOCK_TOLERANCE_SECONDS = env_int("CASINO_TABLET_CLOCK_TOLERANCE_SECONDS", 30)

# --- Static files and security ----------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
if CASINO_ENV != "production":
    # WhiteNoise serves from the finders here but still expects the folder to exist.
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# The embedded default serves the admin and API docs assets without collectstatic.
WHITENOISE_USE_FINDERS = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "casino.api_errors.csrf_failure"
SECURE_CONTENT_TYPE_NOSNIFF = True
if CASINO_ENV == "production":
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", default=True)
    # The balancer's and process manager's probes come over plain HTTP to each node.
    SECURE_REDIRECT_EXEMPT = [r"^api/(live|ready)$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Accounts ---------------------------------------------------------------------------
# Tokens (knox): stored as SHA-512 digests, a new one at every login, one shift and a margin
# long, revoked at logout and, all of them, when the password changes (tables/auth_tokens.py).
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env_int("CASINO_TOKEN_TTL_HOURS", 10)),
    "AUTH_HEADER_PREFIX": "Token",
}
# A tablet that signs in again past this many live tokens gives up its oldest one.
CASINO_TOKENS_PER_USER = env_int("CASINO_TOKENS_PER_USER", 5)
# Login throttling (axes): every failure is recorded; N failures from one username at one
# address lock that pair out for the cool-off, even with the right password afterwards.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("CASINO_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("CASINO_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "tables.api.auth_lockout.lockout_response"
# Shoe keys are sealed with this Fernet key (comma-separated: the first seals, all open, for
# rotation). The development default is refused by the production guard.
DEVELOPMENT_FIELD_KEY = "ZGV2ZWxvcG1lbnQtb25seS1maWVsZC1rZXktMzJieXQ="
CASINO_FIELD_KEY = os.environ.get("CASINO_FIELD_KEY", DEVELOPMENT_FIELD_KEY)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

refuse_unsafe_production(
    env=CASINO_ENV,
    database_engine=DATABASES["default"]["ENGINE"],
    tasks_eager=CELERY_TASK_ALWAYS_EAGER,
    secret_key=SECRET_KEY,
    default_secret_key=DEVELOPMENT_SECRET_KEY,
    debug=DEBUG,
)
refuse_unsafe_field_key(
    env=CASINO_ENV, field_key=CASINO_FIELD_KEY, default_field_key=DEVELOPMENT_FIELD_KEY
)

# --- Policy -----------------------------------------------------------------------------
# JSON answers are never cached; pages get a Content-Security-Policy (self only, no inline
# script). The JSON parser refuses bodies nested too deep, numbers past 64 bits and control
# characters with a 400 naming the field.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "casino.middleware.headers.PolicyHeadersMiddleware",
)
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = [
    "tables.api.parsers.BoundedJSONParser",
    "rest_framework.parsers.FormParser",
    "rest_framework.parsers.MultiPartParser",
]

# Floor-wide maxima, in the casino's money unit: no buy-in, fill, credit, counted drop or cage
# figure may pass them, whatever a table's own limits are.
CASINO_MAX_BUY_IN = env_int("CASINO_MAX_BUY_IN", 1_000_000)
CASINO_MAX_FILL = env_int("CASINO_MAX_FILL", 5_000_000)
CASINO_MAX_CREDIT = env_int("CASINO_MAX_CREDIT", 5_000_000)
CASINO_MAX_DROP = env_int("CASINO_MAX_DROP", 50_000_000)
CASINO_MAX_CAGE_FIGURE = env_int("CASINO_MAX_CAGE_FIGURE", 500_000_000)
