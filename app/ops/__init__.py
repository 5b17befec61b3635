"""Running the server: logs, Prometheus metrics, the request observer, garbage-collector
settings, the container health check, and atomic file writes for exports.
"""
