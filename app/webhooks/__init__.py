"""Webhooks: receivers an admin registers, told of every write transaction (docs/webhooks.md).

`models.py` the tables (the receivers, the outbox of events and their deliveries), `events.py`
what a delivery says and how it is signed (pure), `addresses.py` which receivers are refused,
`sender.py` the task that sends deliveries off the request path.
"""
