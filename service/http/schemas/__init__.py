"""The marshmallow schemas of requests and answers."""
