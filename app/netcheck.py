"""Which network addresses the server may send requests to on a user's behalf (webhooks, Web
Push): global unicast only. Shared by :mod:`app.webhooks` and :mod:`app.push`.

- loopback, private, link-local, shared (CGNAT), multicast, reserved and unspecified addresses
  are refused (``ipaddress``'s ``is_global``);
- IPv6 ranges that carry an IPv4 address inside (NAT64, IPv4-mapped and -translated,
  IPv4-compatible, 6to4, Teredo) are refused whatever they embed: a gateway may turn them into
  any IPv4 address;
- the numeric IPv4 forms that the C resolver accepts (``0x7f000001``, ``2130706433``,
  ``127.1``, ``0177.0.0.1``) are read as the address they name (:func:`numeric_ipv4`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable

import aiohttp
import aiohttp.abc

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

EMBEDDED_IPV4 = tuple(ipaddress.ip_network(n) for n in (
    "64:ff9b::/96", "64:ff9b:1::/48", "::ffff:0:0/96", "::ffff:0:0:0/96", "::/96",
    "2002::/16", "2001::/32"))


class PrivateAddress(OSError):
    """A host that is, or resolves to, an address the server does not send to."""

    def __init__(self, message: str = "refused: the host resolves to a private address"):
        super().__init__(message)


def is_private(ip: IPAddress) -> bool:
    if ip.version == 6 and any(ip in net for net in EMBEDDED_IPV4):
        return True
    return not ip.is_global or ip.is_multicast


def numeric_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a host written as a number names (``0x7f000001``, ``127.1``), or None
    for a name."""
    if not host or not all(c in "0123456789abcdefxABCDEFX." for c in host):
        return None
    if not any(c.isdigit() for c in host.split(".")[-1][:1]):
        return None  # a name such as "cafe.bad" or "dead.beef": its last label is no number
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def literal_address(host: str) -> IPAddress | None:
    """The address a URL's host is written as (any notation), or None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return numeric_ipv4(host)


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (an address written as one is itself)."""
    literal = literal_address(host)
    if literal is not None:
        return [literal]
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


class CheckedResolver(aiohttp.abc.AbstractResolver):
    """aiohttp's resolver, refusing (:class:`PrivateAddress`) a host with any address that
    ``allowed`` refuses: the connector connects only to addresses checked here, so a name
    rebound to an internal address after it was checked gets no connection."""

    def __init__(self, allowed: Callable[[IPAddress], bool]) -> None:
        self.inner = aiohttp.ThreadedResolver()
        self.allowed = allowed

    async def resolve(self, host: str, port: int = 0, family=socket.AF_INET):
        found = await self.inner.resolve(host, port, family)
        for entry in found:
            if not self.allowed(ipaddress.ip_address(entry["host"].split("%")[0])):
                raise PrivateAddress()
        return found

    async def close(self) -> None:
        await self.inner.close()


class NoRedirects:
    """The one method of an aiohttp session that pywebpush calls, with redirects off: a 3xx
    is an answer, never a second request somewhere else."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session

    def post(self, url, **kwargs):
        return self.session.post(url, allow_redirects=False, **kwargs)
