"""Which receiver addresses are refused: a webhook must not become a way to reach the
instance's own network (its database, a cloud metadata service at 169.254.169.254).

Checked when a receiver is registered and again at every send, against the addresses the
name resolves to then, so a name that later resolves to a private address (DNS rebinding)
is refused too. `ATLAS_WEBHOOKS_ALLOW_PRIVATE=true` lifts the rule (a receiver inside the
company network).
"""

import ipaddress
import socket
from urllib.parse import urlsplit


class RefusedAddressError(ValueError):
    """The receiver's address is one this instance does not send to."""


def refusal(address: str) -> str | None:
    """Why an IP address is refused (`loopback`, `private`, ...), or None if it is public."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    kinds = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("private", ip.is_private),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("non-public", not ip.is_global),  # shared (100.64/10), documentation ranges ...
    )
    return next((kind for kind, hit in kinds if hit), None)


def check_addresses(host: str, addresses: list[str]) -> None:
    """Raise RefusedAddressError if any address `host` resolved to is not public."""
    for address in addresses:
        kind = refusal(address)
        if kind:
            raise RefusedAddressError(
                f"{host} resolves to {address}, a {kind} address; receivers on private, "
                "loopback and link-local addresses need ATLAS_WEBHOOKS_ALLOW_PRIVATE=true"
            )


def url_problem(url: str) -> str | None:
    """What is wrong with a receiver URL's form (scheme, host, credentials), or None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"must start with http:// or https:// (got {url[:40]!r})"
    if not parts.hostname:
        return "has no host name"
    if parts.username or parts.password:
        return "must not carry a user name or password (the signature authenticates)"
    try:
        _ = parts.port  # urllib raises only when the port is read
    except ValueError:
        return "has a port that is not a number from 0 to 65535"
    return None


def resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (blocking: call it off the event loop), [] if none."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return []
    return sorted({str(info[4][0]) for info in found})
