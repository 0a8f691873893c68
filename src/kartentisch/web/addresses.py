"""Client addresses as the server's per-address limits count them.

Every per-address limit (lobby requests, tables waiting for players, open
connections, hellos, replays) is kept for one *address key*: an IPv4
address as it is, an IPv6 address by its /64 network (one household or one
server is given a whole /64, so counting single IPv6 addresses would let
one person take 2^64 of them). An IPv4 address mapped into IPv6
(``::ffff:192.0.2.1``) counts as the IPv4 address.

The address itself is the peer of the socket, or, only when the server is
told to trust a reverse proxy (``kartentisch serve --forwarded-allow-ips``),
the client the proxy names (docs/deploy.md, "Behind a reverse proxy").

>>> address_key("192.0.2.7")
'192.0.2.7'
>>> address_key("2001:db8:1:2:3:4:5:6")
'2001:db8:1:2::/64'
>>> address_key("::ffff:192.0.2.7")
'192.0.2.7'
>>> address_key(None)
'-'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["IPV6_PREFIX", "UNKNOWN", "address_key", "scope_key"]

#: IPv6 clients are counted by their network of this prefix length.
IPV6_PREFIX: Final = 64
#: The key of a client whose address is not known (a test client, a Unix socket).
UNKNOWN: Final = "-"


def address_key(host: str | None) -> str:
    """The key the per-address limits count ``host`` under (see the module's text)."""
    if not host:
        return UNKNOWN
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]  # not an IP address (a test client's name): counted as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def scope_key(scope: Mapping[str, Any]) -> str:
    """The address key of an ASGI connection (``scope["client"]``)."""
    client = scope.get("client")
    return address_key(client[0] if client else None)
