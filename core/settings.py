"""Settings for the Mordheim campaign manager.

Everything that differs between a laptop and a server comes from the environment through the
small typed helpers below. The defaults are safe for local use: ``DEBUG`` is off unless asked
for (``make run`` asks), hosts are loopback only, and the secret key is generated once into a
git-ignored file when ``SECRET_KEY`` is not given.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

from core.database import database_settings, default_data_dir, embedded_data_dir

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool = False) -> bool:
    value = env_str(name)
    if not value:
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_int(name: str, default: int) -> int:
    value = env_str(name)
    try:
        return int(value) if value else default
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from error


def env_list(name: str, default: list[str]) -> list[str]:
    value = env_str(name)
    return [item.strip() for item in value.split(",") if item.strip()] if value else default


def client_address_from(trusted_proxies: int) -> tuple[tuple[str, ...], int | None]:
    """django-axes' ``AXES_IPWARE_META_PRECEDENCE_ORDER`` and ``AXES_IPWARE_PROXY_COUNT`` for
    ``trusted_proxies`` reverse proxies in front of the app (see ``TRUSTED_PROXY_COUNT``)."""
    if trusted_proxies < 0:
        raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more")
    if not trusted_proxies:
        return ("REMOTE_ADDR",), None
    return ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"), trusted_proxies - 1


def email_settings(url: str) -> dict[str, object]:
    """Django's e-mail settings from one ``EMAIL_URL`` (password reset mails need them):
    empty or ``console:`` prints mails on the console; ``smtp://user:pass@host:port``
    sends them through an SMTP server, with STARTTLS on port 587 (the submission port);
    ``smtps://`` over TLS from the start (port 465 unless given). ``?from=`` sets the sender.
    The user and password are percent-decoded, so an ``@`` in them is written ``%40``."""
    if not url or url in {"console:", "console://"}:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    parts = urlsplit(url)
    if parts.scheme not in {"smtp", "smtps"} or not parts.hostname:
        raise ImproperlyConfigured(
            "EMAIL_URL must be smtp://user:password@host:port, smtps://... or console:"
        )
    try:
        port = parts.port or (465 if parts.scheme == "smtps" else 25)
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL has a bad port: {error}") from error
    found: dict[str, object] = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_SSL": parts.scheme == "smtps",
        "EMAIL_USE_TLS": parts.scheme == "smtp" and port == 587,
        "EMAIL_TIMEOUT": 10,
    }
    sender = parse_qs(parts.query).get("from")
    if sender:
        found["DEFAULT_FROM_EMAIL"] = found["SERVER_EMAIL"] = sender[0]
    return found


def secret_key_from_file(path: Path) -> str:
    """A random key, generated on first use and kept in a git-ignored file (mode 600)."""
    if not path.exists():
        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = env_str("SECRET_KEY") or secret_key_from_file(BASE_DIR / ".secret_key")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "core",
    "campaign",
    "warbands",
    "battles",
    "league",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    # Django's own widget templates, for the form renderer below.
    "django.forms",
    # Throttles log-in attempts (see AXES_* below): a well-kept library rather than our own.
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every answer private and not stored unless its view says otherwise; varies on the
    # session cookie and HX-Request (above the rest, so their own answers are marked too).
    "core.middleware.PrivateAnswersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # NUL and other control characters, over-long values and files refused with a 400.
    "core.middleware.BadInputMiddleware",
    # Every view needs a login unless it is marked @login_not_required.
    "core.middleware.LoginRequiredMiddleware",
    # What a request changes is drawn afresh in its own answer (campaign.cache).
    "campaign.cache.ChangesMiddleware",
    # A form posted twice (double click, re-sent request) applies once.
    "core.once.OnceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as its documentation asks: turns a locked-out log-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# The benchmark (bench/run.py) installs its own app (bench/: its pages and the middleware that
# counts each request's SQL statements in an X-Queries header) only in a benchmark run.
MORDHEIM_BENCH = env_bool("MORDHEIM_BENCH", default=False)
if MORDHEIM_BENCH:
    INSTALLED_APPS.append("bench")
    MIDDLEWARE.insert(0, "bench.middleware.QueryCountMiddleware")

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Fragments of pages, under keys holding the versions of what they show (campaign.cache).
    # Each worker keeps its own: a key names the state it was drawn from, so no worker can
    # serve another's stale copy. Old versions' entries are culled or expire.
    "fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "TIMEOUT": 600,
        "OPTIONS": {"MAX_ENTRIES": 500},
    },
}

ROOT_URLCONF = "core.urls"
WSGI_APPLICATION = "core.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% form_token %} in every form (see core.once) without a {% load %}.
            "builtins": ["core.templatetags.core_tags", "warbands.templatetags.warband_tags"],
            # The post-battle charts beside the rolls they decide live with the post-battle
            # sequence, not in a templatetags package beside the battles app's features.
            "libraries": {"charts_at_hand": "battles.aftermath.charts"},
        },
    },
]

# Widgets are drawn by the project's template engine, so templates/django/forms/widgets/ can
# replace Django's select, option, input and textarea templates with copies that draw their
# attributes and options in place: the same HTML, without a template include per attribute list
# and per option (a select of 40 items drew 81 templates).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

# Without DATABASE_URL, the embedded server in this folder: manage.py, core.wsgi and the tests
# start it (core.database.start_embedded); importing these settings starts nothing.
EMBEDDED_DATABASE_DIR = embedded_data_dir(os.environ, default_data_dir=default_data_dir(BASE_DIR))
DATABASES = {
    "default": database_settings(
        os.environ,
        default_data_dir=default_data_dir(BASE_DIR),
        prepared_statements=env_bool("DB_PREPARED_STATEMENTS", default=True),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First, so that a locked-out username and address is refused before any password check.
    "axes.backends.AxesStandaloneBackend",
    "core.auth.DemoPasswordRefusingBackend",
]
# Log-in throttling (django-axes): five failures for one username from one address lock that
# pair out for fifteen minutes; a success resets the count.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "core.auth.locked_out"
AXES_VERBOSE = False
# The "address" above is the client's. Behind reverse proxies every request comes from the
# nearest proxy, and anyone could lock any account out for everybody: TRUSTED_PROXY_COUNT says
# how many proxies stand in front of the app (each adding the address it was reached from to
# X-Forwarded-For), and the client is the address that many places from the header's end,
# whatever a client wrote before it. Without it X-Forwarded-For is ignored (anyone can send
# one) and the address is the connection's. django-axes reads it through django-ipware, whose
# proxy count leaves out the nearest proxy (its own address is REMOTE_ADDR, not in the header);
# not strict, so that a chain longer than the proxies (a client's own proxy or a forged prefix)
# still yields the address our proxies saw.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_IPWARE_META_PRECEDENCE_ORDER, AXES_IPWARE_PROXY_COUNT = client_address_from(
    TRUSTED_PROXY_COUNT
)
AXES_IPWARE_PROXY_ORDER = "left-most"  # the header as written: client first, proxies after
IPWARE_STRICT = False
# The battle helper's pages ask for the game's changes this often, in seconds: a setting, so
# that an operator may trade load (one request per open page per interval) for liveness (how
# soon a tap shows on the other phone). The browser tests poll faster so that they do not wait.
BATTLE_HELPER_POLL_SECONDS = env_int("BATTLE_HELPER_POLL_SECONDS", 1)
if BATTLE_HELPER_POLL_SECONDS < 1:
    raise ImproperlyConfigured("BATTLE_HELPER_POLL_SECONDS must be 1 or more")
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# E-mail (password reset links): printed on the console unless EMAIL_URL names an SMTP server.
globals().update(email_settings(env_str("EMAIL_URL")))
# The address the links in notices and digests start with (core.notices).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
# The app is in English only and has no translations; with USE_I18N on, every number and date
# a template prints would first look up the active language. Dates and numbers keep en-gb's
# formats either way.
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")  # made by core.apps
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed names after `collectstatic`; plain names before it (see the class).
    "staticfiles": {"BACKEND": "core.storage.StaticFilesStorage"},
}

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# Cookies and HTTPS. With DEBUG off the cookies are Secure; a plain-http local run (the
# benchmark on 127.0.0.1) may turn that off with SECURE_COOKIES=0. With DEBUG off Django also
# sends HSTS (a year) on HTTPS responses; browsers ignore it over plain http. The redirect from
# http to https is usually the reverse proxy's job, so it is off unless the environment turns
# it on; that leaves security.W008 in `manage.py check --deploy` (see README).
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
if env_bool("TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content Security Policy (django-csp): our own files only, no inline script or style, no
# eval. htmx runs under it because base.html turns off its eval and injected styles; Pico's
# form controls draw their arrows with data: SVG images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "console": {"class": "logging.StreamHandler", "level": env_str("LOG_LEVEL", "WARNING")}
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
