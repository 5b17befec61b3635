"""Settings from the environment and an optional .env file."""

import logging
import secrets
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.ops.logs import LogFormat, LogLevel

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    # validate_by_name: tests and callers pass fields by name; the environment uses the aliases.
    model_config = SettingsConfigDict(
        env_file=".env", extra="ignore", validate_by_name=True, validate_by_alias=True
    )

    database_url: str = f"sqlite:///{PROJECT_ROOT / 'inference_atlas.db'}"
    seed_dir: Path = PROJECT_ROOT / "seed"
    site_name: str = "Inference Atlas"
    # One line per request, written by the app (app/ops/observe.py); uvicorn's own is off.
    access_log: bool = True
    # "json": one JSON object a line, for a log collector; "text" for a terminal.
    log_format: LogFormat = "text"
    log_level: LogLevel = "INFO"
    # Where people reach this instance, scheme and host (and a path prefix, if any): every
    # absolute link a page writes (share links, og:image, feeds) starts with it, never with
    # the request's Host header, so a cached page cannot carry a host a client made up.
    # `serve` sets it from --host/--port when it is not set; the compose deployment derives
    # it from ATLAS_HOSTNAME.
    public_url: str = Field(
        default="http://127.0.0.1:8000",
        validation_alias=AliasChoices("atlas_public_url", "public_url"),
        pattern=r"^https?://[^/?#\s]+(/[^?#\s]*)?$",
    )
    # Host names this instance answers to (comma-separated; `*` for any). Links and
    # redirects are built from the Host header, so an unchecked one would be reflected.
    trusted_hosts: str = "localhost,127.0.0.1,::1"
    # Worker threads for database work and rendering; the connection pool matches it.
    threads: int = 16
    # Responses built at once (the rest queue): bounds the memory big pages take together.
    # Two keep both cores busy (one build's database reads and gzip run outside the GIL);
    # four took 20 MB more at ten times the data for no shorter waits (docs/performance.md).
    builds: int = 2
    # 32 MB holds several hundred pages, gzipped; 64 put a server at ten times the data over
    # its 300 MB (docs/performance.md).
    render_cache_mb: int = 32
    max_query_bytes: int = 8192
    # Every request body but an upload's (those have the import limit): JSON writes, forms.
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    # A request body that stops arriving for this long gets a 408 (slow-body clients).
    body_timeout_seconds: float = Field(default=30.0, gt=0)
    # How long a SQLite writer waits for another one before giving up with a clear message.
    sqlite_busy_timeout_ms: int = 10_000

    # "production" refuses to start without a real secret; "development" makes one up.
    atlas_env: Literal["development", "production"] = "development"
    # Signs the session cookie. Every process serving one instance needs the same value.
    secret_key: str = Field(
        default="", validation_alias=AliasChoices("atlas_secret_key", "secret_key")
    )
    # Whether pages and API reads are open to anyone (false: sign-in needed for everything
    # but /login, /healthz and static files).
    atlas_public_read: bool = True
    # How long a browser sign-in lasts before the password is asked for again.
    atlas_session_days: int = Field(default=14, ge=1, le=365)
    # How the team's own source is labelled beside the articles' (claims and results).
    atlas_team_name: str = Field(default="Team", min_length=1, max_length=60)
    # When set, /metrics answers only `Authorization: Bearer <this>` (see docs/deploy.md).
    atlas_metrics_token: str = ""
    # Whether /login offers name and password (false: only the identity provider's button).
    atlas_password_login: bool = True

    # OpenID Connect sign-in (docs/deploy.md): on when the issuer and client id are set.
    # Group lists are comma-separated; an entry may also be an e-mail address or "@domain"
    # (matched against a verified e-mail, for providers that send no groups).
    atlas_oidc_issuer: str = Field(default="", pattern=r"^(https?://[^\s?#]+)?$")
    atlas_oidc_client_id: str = ""
    atlas_oidc_client_secret: str = ""
    atlas_oidc_name: str = Field(default="", max_length=60)
    atlas_oidc_scopes: str = "openid email profile"
    atlas_oidc_groups_claim: str = "groups"
    atlas_oidc_admin_groups: str = ""
    atlas_oidc_editor_groups: str = ""
    # The role of someone in none of the listed groups; "none" refuses them.
    atlas_oidc_default_role: Literal["viewer", "editor", "admin", "none"] = "viewer"

    # Trusted proxy sign-in: off unless the user header is set (e.g. X-Forwarded-User).
    atlas_proxy_user_header: str = ""
    atlas_proxy_groups_header: str = ""
    # The one list of trusted proxies (addresses or networks, comma-separated): the only
    # peers whose X-Forwarded-For/-Proto and proxy sign-in headers are believed.
    # FORWARDED_ALLOW_IPS, uvicorn's name for it, is read when this is not set.
    trusted_proxies: str = Field(
        default="127.0.0.1,::1",
        validation_alias=AliasChoices(
            "atlas_trusted_proxies", "forwarded_allow_ips", "trusted_proxies"
        ),
    )

    # Webhooks (docs/webhooks.md). Receivers on private, loopback and link-local addresses
    # are refused unless this is true, so a receiver cannot be used to probe the network
    # this instance sits in.
    atlas_webhooks_allow_private: bool = False
    # false: this process sends no deliveries (another server of the instance does).
    atlas_webhooks_send: bool = True
    # Seconds one delivery may take (connect, send, answer) before it counts as failed.
    atlas_webhooks_timeout_seconds: float = Field(default=10.0, gt=0, le=30)
    # Deliveries in flight at once from this process.
    atlas_webhooks_concurrency: int = Field(default=4, ge=1, le=32)
    # How often to look for deliveries filed by other servers and retries come due.
    atlas_webhooks_poll_seconds: float = Field(default=2.0, gt=0, le=60)

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        # LOG_LEVEL=info and LOG_FORMAT=JSON mean what they say.
        if not isinstance(value, str):
            return value
        return value.lower() if value.lower() in ("json", "text") else value.upper()

    def signing_secret(self) -> str:
        """The secret that signs session cookies; refuses a weak one in production.

        In development a missing secret is replaced by a random one for this process only:
        cookies then stop working across restarts, and several processes (uvicorn
        --workers, replicas behind one proxy) would each reject the others' cookies.
        """
        secret = self.secret_key.strip()
        if secret and secret.lower() not in PLACEHOLDER_SECRETS:
            if self.atlas_env == "production" and len(secret) < MIN_SECRET_LENGTH:
                raise InsecureSecretError(
                    f"ATLAS_SECRET_KEY is {len(secret)} characters long; production needs at "
                    f"least {MIN_SECRET_LENGTH}. {MAKE_SECRET}"
                )
            return secret
        problem = "is not set" if not secret else f"is the placeholder {secret!r}"
        if self.atlas_env == "production":
            raise InsecureSecretError(
                f"ATLAS_SECRET_KEY {problem}, and ATLAS_ENV=production refuses to start "
                f"without a secret of its own to sign session cookies. {MAKE_SECRET}"
            )
        logging.getLogger("inference_atlas").warning(
            "ATLAS_SECRET_KEY %s: signing session cookies with a random secret for this "
            "process only. Sign-ins end when it restarts, and several processes serving one "
            "instance must share one ATLAS_SECRET_KEY.",
            problem,
        )
        return secrets.token_urlsafe(48)

    def engine_options(self) -> dict[str, int]:
        return {"pool_size": self.threads, "busy_timeout_ms": self.sqlite_busy_timeout_ms}

    def public_base(self) -> str:
        """ATLAS_PUBLIC_URL without a trailing slash, for joining with a path."""
        return self.public_url.rstrip("/")

    def trusted_host_list(self) -> list[str]:
        return [h.strip() for h in self.trusted_hosts.split(",") if h.strip()]

    def oidc_enabled(self) -> bool:
        return bool(self.atlas_oidc_issuer and self.atlas_oidc_client_id)

    def oidc_label(self) -> str:
        """What the sign-in button names: ATLAS_OIDC_NAME, or the issuer's host."""
        return self.atlas_oidc_name or self.atlas_oidc_issuer.split("://", 1)[-1].split("/")[0]


def comma_list(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


MIN_SECRET_LENGTH = 32
# Values copied from examples; a secret anyone can read in a README signs nothing.
PLACEHOLDER_SECRETS = frozenset(
    {"changethis", "change-me", "changeme", "secret", "secret-key", "dev", "development", "test"}
)
MAKE_SECRET = (
    "Make one with: python -c 'import secrets; print(secrets.token_urlsafe(48))' "
    "and set it in the environment or .env."
)


class InsecureSecretError(RuntimeError):
    """The configured secret cannot be trusted to sign session cookies."""
