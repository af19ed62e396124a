"""Every benchmark and its command line (``facedown bench``). Nothing that serves players
imports this package; it drives the service from outside, as its users do."""
