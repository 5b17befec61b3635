"""Docker's HEALTHCHECK: exit 0 when the server in this container answers /healthz with 200.

Standard library only (no curl in the image, and no import of the app): a check every 30 s
costs a few milliseconds. /healthz answers 503 when the process has lost its database.
"""

import os
import sys
import urllib.request

URL = os.environ.get("HEALTHCHECK_URL", "http://127.0.0.1:8000/healthz")


def main() -> int:
    # No proxy: an HTTP_PROXY set for the container must not carry a check of itself.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(URL, timeout=5) as response:
            return 0 if response.status == 200 else 1
    except OSError as exc:  # refused, timed out, or an HTTP error such as 503
        print(f"unhealthy: {URL}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
