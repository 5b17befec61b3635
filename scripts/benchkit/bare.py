"""The floor of `make bench`: a bare FastAPI app, served by uvicorn in a process of its own.

One route answering a short JSON body, no middleware, no database: what a request costs this
machine's Python, uvicorn and FastAPI before the Atlas does anything. Each view's requests/s
is compared with this, measured in the same run just before it.
"""

from fastapi import FastAPI

app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)


@app.get("/")
async def bare() -> dict[str, str]:
    return {"status": "ok"}
