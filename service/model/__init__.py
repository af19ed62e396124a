"""What the service knows of a game and an account, pure: no I/O, no web framework, no SQL."""
