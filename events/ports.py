"""A free TCP port on the loopback, for a server this process is about to start."""
from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick); the caller binds it soon after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
