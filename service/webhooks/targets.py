"""Where a webhook may point: http(s) URLs of public addresses only.

Private, loopback, link-local, multicast and reserved addresses are refused (a webhook
must not be a way into the service's own network) unless ``FACEDOWN_WEBHOOKS_ALLOW_PRIVATE=1``,
which tests need and production must not set. The check runs at registration and again at
every delivery, and a delivery connects to the very address it checked (no second lookup
that could answer differently).
"""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

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


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved
                or ip.is_unspecified)


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
    if not allow_private and not all(_public(a) for a in addresses):
        raise TargetRefused(f"the host {parts.hostname!r} resolves to a private, loopback or link-local address")
    return Target(url, parts.scheme, parts.hostname, port, addresses[0])
