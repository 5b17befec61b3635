"""Security headers on every response: pages, API, static files, redirects and errors
(added by app/web/edge/security.py, the outermost layer).

The Content-Security-Policy allows only our own files: no inline script, no inline style
(neither <style> nor style="…"), no framing. Templates, static JS and server-drawn SVG
therefore never write a style attribute (SVG presentation attributes such as fill= are
not styles and are allowed), and HTMX is told not to inject its indicator <style>
(`includeIndicatorStyles: false` in layout.html; the rules live in app.css).

A route that needs a different policy sets its own Content-Security-Policy header; only the
headers a response does not already have are added.
"""

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
    )
)

SECURITY_HEADERS = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    # Shared links carry filters in the query string; other sites get the origin only.
    ("referrer-policy", "strict-origin-when-cross-origin"),
    # For browsers that predate frame-ancestors.
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
)

SERVER_ERROR = b"Internal Server Error"
