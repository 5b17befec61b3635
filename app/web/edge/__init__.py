"""The HTTP edge: small pure-ASGI layers, each one job, declared in order in app/main.py.

Every answer passes every layer, whether the page cache answered it or a route built it:
the same request id, log line and metrics (observe), security headers (security), encoding
(compression) and If-None-Match handling (conditional).
"""
