"""Signed webhooks (Standard Webhooks): signing, sending and the delivery worker (registering
one is a use case, ``service.usecases.webhooks``); which targets are safe is
``service.adapters.outbound``'s check, the one of every request the service sends.

A player registers ``{url, events}`` and gets a secret, shown once. Each notification of a
subscribed kind puts a delivery in the outbox in the notification's own transaction
(``sql/007``); the delivery worker sends it with ``webhook-id``, ``webhook-timestamp`` and
``webhook-signature`` headers, retries with exponential back-off, and disables a webhook
whose deliveries keep failing (its owner gets a ``webhook_disabled`` notification).
"""
