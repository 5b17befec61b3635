"""One router per area, a few lines per handler: read params, call a query, render or return.
Every /api/v1 route is in routes/api/.
"""
