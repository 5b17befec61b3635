"""Trusted proxy sign-in: a proxy in front (oauth2-proxy, Authelia, Caddy's forward_auth)
has signed the person in and names them in a header (ATLAS_PROXY_USER_HEADER, with their
groups in ATLAS_PROXY_GROUPS_HEADER).

The headers count only on a request whose connection comes from an address in
ATLAS_TRUSTED_PROXIES, the same list whose X-Forwarded-For/-Proto are believed
(app/web/edge/proxies.py marks such requests before those headers are applied); from anyone
else they are ignored, as if absent. A list that trusts every address is refused at start
while the user header is set: anyone could then name themselves anyone.
"""

import ipaddress
from dataclasses import dataclass

from app.accounts.external import PROXY_ISSUER, RoleRules, Vouched
from app.settings import Settings, comma_list

# Where TrustedProxies leaves whether the connection came from a trusted proxy.
FROM_PROXY = "atlas.from_trusted_proxy"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ProxySettingsError(ValueError):
    """ATLAS_TRUSTED_PROXIES or the proxy headers cannot be used as set."""


def trusted_networks(value: str) -> tuple[Network, ...] | None:
    """The networks of a comma-separated list of addresses and networks; None for `*`."""
    items = comma_list(value)
    if "*" in items:
        return None
    networks = []
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ProxySettingsError(
                f"ATLAS_TRUSTED_PROXIES: {item!r} is neither an IP address nor a network "
                "(use e.g. 127.0.0.1, 10.0.0.0/8 or ::1, comma-separated)."
            ) from None
    return tuple(networks)


def is_trusted(networks: tuple[Network, ...] | None, host: str | None) -> bool:
    if networks is None:
        return True
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:  # a Unix socket path, or no address at all
        return False
    return any(address in network for network in networks)


@dataclass(frozen=True)
class ProxySignIn:
    """The proxy headers to read and the role rules for the groups they carry."""

    user_header: str
    groups_header: str
    rules: RoleRules

    @classmethod
    def from_settings(cls, settings: Settings) -> "ProxySignIn | None":
        header = settings.atlas_proxy_user_header.strip().lower()
        if not header:
            return None
        networks = trusted_networks(settings.trusted_proxies)
        if networks is None or any(n.prefixlen == 0 for n in networks):
            raise ProxySettingsError(
                "ATLAS_PROXY_USER_HEADER is set, and ATLAS_TRUSTED_PROXIES trusts every "
                "address: anyone could sign in as anyone. List the proxy's own addresses."
            )
        groups = settings.atlas_proxy_groups_header.strip().lower()
        return cls(header, groups, RoleRules.from_settings(settings))

    def person(self, user: str, groups: str) -> Vouched | None:
        """Who the proxy names and the role their groups give (None: no listed group and
        ATLAS_OIDC_DEFAULT_ROLE=none)."""
        user = user.strip()
        found = [g for g in (item.strip() for item in groups.split(",")) if g]
        # The proxy has checked the address it passes: oauth2-proxy's user is often one.
        role = self.rules.role_for(found, user if "@" in user else None)
        if role is None:
            return None
        return Vouched(PROXY_ISSUER, user, user, role, "the trusted proxy")
