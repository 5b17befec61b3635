"""OpenID Connect sign-in through Authlib: the authorization-code flow with PKCE (S256),
state and nonce, the ID token verified against the provider's published keys (JWKS).

The flow's secrets (state, nonce, PKCE verifier, where to go afterwards) travel in a
short-lived cookie of their own, signed with the session secret under its own salt, scoped to
/login/oidc, HttpOnly and SameSite=Lax: so a callback is accepted only in the browser that
started the flow (a forged or copied callback URL carries a state that browser never saw),
and the server keeps no per-flow rows. The cookie is deleted by the callback, whatever the
outcome, so a replayed callback finds no flow; a replayed code is refused by the provider.

Every call to the provider is network I/O on httpx2's async client (through Authlib), so
the event loop never waits on it; each has a timeout, and a provider that is down or answers
nonsense is a clear page, never a session.
"""

import hmac
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx2
from authlib.common.errors import AuthlibBaseError
from authlib.integrations.starlette_client import OAuth
from itsdangerous import BadData, URLSafeTimedSerializer
from joserfc.errors import ExpiredTokenError, JoseError

from app.accounts.external import RoleRules, Vouched, claim_groups, name_hint, verified_email
from app.settings import Settings

log = logging.getLogger("inference_atlas")

FLOW_COOKIE = "atlas_oidc_flow"
FLOW_PATH = "/login/oidc"
FLOW_SALT = "inference-atlas.oidc-flow"
# Long enough to type a password and answer a second factor at the provider.
FLOW_SECONDS = 600
TIMEOUT_SECONDS = 10.0
# Clocks differ a little between us and the provider; an ID token a minute old is fine.
LEEWAY_SECONDS = 60


class SignInFailedError(Exception):
    """The provider's sign-in did not give a person; `message` says so to the person."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


@dataclass(frozen=True)
class Flow:
    state: str
    nonce: str
    verifier: str
    next_path: str


class Provider:
    """One configured OpenID Connect provider (the issuer's metadata and keys are fetched
    on first use and kept; keys again when a token names one not seen before)."""

    def __init__(self, settings: Settings, signer_secret: str) -> None:
        self.issuer = settings.atlas_oidc_issuer.rstrip("/")
        self.label = settings.oidc_label()
        self.callback = settings.public_base() + "/login/oidc/callback"
        self.groups_claim = settings.atlas_oidc_groups_claim
        self.rules = RoleRules.from_settings(settings)
        self.flows = URLSafeTimedSerializer(signer_secret, salt=FLOW_SALT)
        self.client: Any = OAuth().register(
            "atlas",
            client_id=settings.atlas_oidc_client_id,
            client_secret=settings.atlas_oidc_client_secret or None,
            server_metadata_url=self.issuer + "/.well-known/openid-configuration",
            client_kwargs={
                "scope": settings.atlas_oidc_scopes,
                "code_challenge_method": "S256",
                "timeout": TIMEOUT_SECONDS,
                # Without a secret this is a public client: PKCE alone proves the code ours.
                "token_endpoint_auth_method": (
                    "client_secret_basic" if settings.atlas_oidc_client_secret else "none"
                ),
            },
        )

    async def begin(self, next_path: str) -> tuple[str, str]:
        """The provider's authorization URL to send the browser to, and the flow cookie."""
        async with _provider_errors(self.label):
            await self._check_issuer()
            made = await self.client.create_authorization_url(self.callback)
        flow = Flow(made["state"], made["nonce"], made["code_verifier"], next_path)
        return made["url"], self.flows.dumps(flow.__dict__)

    def flow(self, cookie: str | None) -> Flow:
        """The flow this browser started; refused when missing, forged or too old."""
        if not cookie:
            raise SignInFailedError(NO_FLOW)
        try:
            data = self.flows.loads(cookie, max_age=FLOW_SECONDS)
            return Flow(**data)
        except (BadData, TypeError):
            raise SignInFailedError(NO_FLOW) from None

    async def finish(self, flow: Flow, params: dict[str, str]) -> Vouched:
        """Check the provider's answer against the flow, redeem the code and verify the ID
        token; who the person is and the role their groups give."""
        if error := params.get("error"):
            raise SignInFailedError(_refusal(self.label, error, params.get("error_description")))
        if not hmac.compare_digest(params.get("state", ""), flow.state):
            raise SignInFailedError(NO_FLOW)
        if not params.get("code"):
            raise SignInFailedError(f"{self.label} sent no sign-in code back. Please start again.")
        async with _provider_errors(self.label):
            token = await self.client.fetch_access_token(
                redirect_uri=self.callback, code=params["code"], code_verifier=flow.verifier
            )
            if "id_token" not in token:
                raise SignInFailedError(
                    f"{self.label} sent no ID token; is `openid` in the scopes?"
                )
            claims = await self.client.parse_id_token(
                token, nonce=flow.nonce, leeway=LEEWAY_SECONDS
            )
        return self.vouched(dict(claims))

    def vouched(self, claims: dict[str, object]) -> Vouched:
        subject = claims.get("sub")
        if not isinstance(subject, str) or not subject:
            raise SignInFailedError(f"{self.label}'s ID token names nobody (no `sub`).")
        groups = claim_groups(claims, self.groups_claim)
        role = self.rules.role_for(groups, verified_email(claims))
        if role is None:
            raise SignInFailedError(NOT_ADMITTED.format(label=self.label), status=403)
        return Vouched(self.issuer, subject, name_hint(claims), role, self.label)

    async def _check_issuer(self) -> None:
        metadata = await self.client.load_server_metadata()
        if str(metadata.get("issuer", "")).rstrip("/") != self.issuer:
            # Its tokens would name another issuer; someone else's provider answered.
            raise SignInFailedError(
                f"{self.label}'s discovery document names the issuer "
                f"{metadata.get('issuer')!r}, not {self.issuer!r} (ATLAS_OIDC_ISSUER).",
                status=502,
            )


NO_FLOW = (
    "This sign-in was not started in this browser, or took longer than ten minutes, or "
    "was already used. Nothing was signed in; please start again."
)
NOT_ADMITTED = (
    "Your {label} account is in none of the groups this instance admits, so it cannot "
    "sign you in. Ask an admin of this instance to add you to one."
)


def _refusal(label: str, error: str, description: str | None) -> str:
    if error == "access_denied":
        return f"{label} did not sign you in (the request was declined). Nothing was changed."
    detail = f": {description}" if description else ""
    return f"{label} refused the sign-in ({error}{detail})."


@asynccontextmanager
async def _provider_errors(label: str) -> AsyncIterator[None]:
    """Turns what can go wrong talking to the provider into a SignInFailedError with a message a
    person can act on (and the details in the log for the admin)."""
    try:
        yield
    except SignInFailedError:
        raise
    except httpx2.HTTPError as exc:
        log.warning("OpenID Connect provider unreachable or failing: %r", exc)
        raise SignInFailedError(
            f"{label} could not be reached or answered with an error. Nothing was signed "
            "in; please try again in a moment.",
            status=502,
        ) from exc
    except ExpiredTokenError as exc:
        raise SignInFailedError(
            f"{label}'s ID token had expired. Nothing was signed in; please start again (if "
            "it keeps happening, this server's clock may be wrong)."
        ) from exc
    except JoseError as exc:
        log.warning("OpenID Connect ID token refused: %r", exc)
        raise SignInFailedError(
            f"{label}'s ID token did not verify ({exc.error}). Nothing was signed in."
        ) from exc
    except AuthlibBaseError as exc:
        log.warning("OpenID Connect sign-in refused: %r", exc)
        if exc.error == "invalid_grant":
            raise SignInFailedError(
                f"{label} refused the sign-in code: it has been used already or has expired. "
                "Nothing was signed in; please start again."
            ) from exc
        raise SignInFailedError(
            f"{label} refused the sign-in ({exc.error}). Nothing was signed in; if it keeps "
            "happening, an admin should check ATLAS_OIDC_CLIENT_ID and _SECRET.",
            status=502,
        ) from exc
