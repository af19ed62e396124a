"""The facedown service: HTTP API, CLI and use cases."""
