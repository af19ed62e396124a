"""The rules of the games, pure: standard library and ``domain.*`` only."""
