"""The HTTP edge, never SQL: templates and render()/serve() (the only HX-* reader), the render
and fragment caches, error responses, HTTP middleware, and OpenAPI for the query models.
"""
