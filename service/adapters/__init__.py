"""Adapters: what the service talks to outside itself (the database through events/, SMTP, Web Push)."""
