"""Where the service may send a request of its own (a webhook today, a Web Push endpoint
next): http(s) URLs whose every address is globally routable.

An address is routable only if it is global and neither multicast nor reserved, and so is
every IPv4 address it wraps: an IPv4-mapped or NAT64 address is the IPv4 address inside it,
and a 6to4 or Teredo address must be global both itself and in the IPv4 addresses inside it
(``[2002:7f00:1::]`` is 6to4 for 127.0.0.1; Teredo's prefix is not global, so none passes).
So private, loopback, link-local, shared (100.64.0.0/10, where one cloud keeps its metadata
service), benchmarking and documentation ranges are all refused.
``FACEDOWN_WEBHOOKS_ALLOW_PRIVATE=1`` lifts the check for tests; production must not set it.

:func:`check` runs when a target is registered and again before each request, after a fresh
DNS lookup; the request then connects to the very address it checked (``Target.address``),
never to a second lookup that could answer differently (DNS rebinding).
"""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests
from requests.adapters import HTTPAdapter

MAX_URL = 2000


class TargetRefused(ValueError):
    """The URL is not a target facedown will send to; the message says why."""


@dataclass(frozen=True, slots=True)
class Target:
    url: str
    scheme: str
    host: str
    port: int
    address: str  # the checked IP address a delivery connects to


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address in the last 32 bits
# not global in the IANA registries, but so for Python 3.11: IETF protocol assignments (192.0.0.8,
# a dummy address, among them) and RFC 8215's local-use NAT64
_NOT_GLOBAL = (ipaddress.IPv4Network("192.0.0.0/24"), ipaddress.IPv6Network("64:ff9b:1::/48"))


Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _layers(ip: Address) -> tuple[Address, ...]:
    """The addresses a connection to ``ip`` really reaches: itself and the IPv4 it wraps."""
    if isinstance(ip, ipaddress.IPv4Address):
        return (ip,)
    if ip.ipv4_mapped is not None:  # the socket speaks IPv4 to it
        return (ip.ipv4_mapped,)
    if ip in _NAT64:  # a translator speaks IPv4 to it (the prefix itself is in reserved ::/8)
        return (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    if ip.sixtofour is not None:
        return (ip, ip.sixtofour)
    if ip.teredo is not None:
        return (ip, *ip.teredo)
    return (ip,)


def routable(address: str) -> bool:
    """Whether ``address`` (as ``getaddrinfo`` gives it) is one the service may send to."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return all(a.is_global and not (a.is_multicast or a.is_reserved or any(a in n for n in _NOT_GLOBAL))
               for a in _layers(ip))


def check(url: str, allow_private: bool) -> Target:
    """The target of ``url``, resolved and checked; :class:`TargetRefused` if it may not be used."""
    if len(url) > MAX_URL:
        raise TargetRefused(f"the URL is longer than {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise TargetRefused("the URL must start with http:// or https://")
    if parts.username or parts.password:
        raise TargetRefused("the URL must not hold a user name or password")
    if not parts.hostname:
        raise TargetRefused("the URL has no host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise TargetRefused(f"the URL's port is not valid: {exc}") from None
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise TargetRefused(f"the host {parts.hostname!r} cannot be resolved: {exc}") from None
    addresses = sorted({str(info[4][0]) for info in infos})
    if not allow_private and not all(routable(a) for a in addresses):
        raise TargetRefused(f"the host {parts.hostname!r} resolves to an address that is not globally routable"
                            " (private, loopback, link-local, shared or reserved)")
    return Target(url, parts.scheme, parts.hostname, port, addresses[0])


class _Pinned(HTTPAdapter):
    """TLS to the checked address, with the certificate checked against the URL's host."""

    def __init__(self, hostname: str) -> None:
        self.hostname = hostname
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self.hostname
        kwargs["assert_hostname"] = self.hostname
        super().init_poolmanager(*args, **kwargs)


def pinned_url(target: Target) -> str:
    """The target's URL with its checked address in place of the host name, so that the request
    goes where the check looked (a second DNS answer could point elsewhere)."""
    parts = urlsplit(target.url)
    host = f"[{target.address}]" if ":" in target.address else target.address
    return urlunsplit((parts.scheme, f"{host}:{target.port}", parts.path or "/", parts.query, ""))


def pinned_session(target: Target) -> requests.Session:
    """A session for :func:`pinned_url`: TLS checked against the URL's host, no retries."""
    session = requests.Session()
    session.mount("https://", _Pinned(target.host))
    session.mount("http://", HTTPAdapter(max_retries=0))
    return session
