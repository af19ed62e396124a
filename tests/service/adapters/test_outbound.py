"""The one check of every outbound target (webhooks now, Web Push next): only globally routable
addresses, with IPv4-mapped, 6to4, Teredo and NAT64 addresses judged by the IPv4 inside them,
at registration and again when a delivery is sent."""
from __future__ import annotations

import pytest

from service.adapters.outbound import TargetRefused, check, routable
from service.adapters.webhooks import sending
from tests.service.webhook_receiver import receiver

REFUSED = [
    "100.100.100.200",  # shared address space (100.64.0.0/10): one cloud's metadata service
    "100.64.0.1", "100.127.255.254",
    "2002:7f00:1::",  # 6to4 around 127.0.0.1
    "2002:a9fe:a9fe::",  # 6to4 around 169.254.169.254
    "2002:a00:1::",  # 6to4 around 10.0.0.1
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:100.100.100.200",  # IPv4-mapped
    "64:ff9b::7f00:1", "64:ff9b:1::808:808",  # NAT64 around 127.0.0.1; local-use NAT64
    "::7f00:1",  # IPv4-compatible (deprecated, reserved)
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "::1", "::",
    "fe80::1", "fe80::1%lo", "fc00::1", "fd12::1",
    "192.0.0.8", "192.0.2.1", "198.18.0.1", "198.51.100.1", "203.0.113.1", "2001:db8::1",  # special, test nets
    "224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1",  # multicast
    "240.0.0.1", "255.255.255.255", "not an address",
]
ALLOWED = ["8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "2606:4700:4700::1111",
           "2002:808:808::", "::ffff:8.8.8.8", "64:ff9b::808:808"]


@pytest.mark.parametrize("address", REFUSED)
def test_an_address_that_is_not_globally_routable_or_wraps_one_is_refused(address: str) -> None:
    assert not routable(address)


@pytest.mark.parametrize("address", ALLOWED)
def test_a_global_address_and_one_wrapping_a_global_ipv4_are_allowed(address: str) -> None:
    assert routable(address)


@pytest.mark.parametrize("url", ["http://100.100.100.200/latest/meta-data/", "http://[2002:7f00:1::]:8080/hook",
                                 "https://[2002:a9fe:a9fe::]/", "http://[::ffff:127.0.0.1]/"])
def test_a_url_of_such_an_address_is_refused_unless_private_targets_are_allowed(url: str) -> None:
    with pytest.raises(TargetRefused, match="not globally routable"):
        check(url, allow_private=False)
    assert check(url, allow_private=True).url == url


def test_a_delivery_checks_its_target_again_and_sends_nothing_to_a_refused_one() -> None:
    """A target refused at delivery (say its name now resolves to a loopback address) gets
    no request: the same check runs before every send, on the addresses resolved then."""
    with receiver() as rx:
        refused = sending.send(rx.url, b"k" * 32, "msg_1", b"{}", allow_private=False)
        assert refused.status is None and refused.error and refused.error.startswith("refused:")
        assert "not globally routable" in refused.error and rx.received == []
        sent = sending.send(rx.url, b"k" * 32, "msg_2", b"{}", allow_private=True)
        assert sent.delivered and len(rx.received) == 1
