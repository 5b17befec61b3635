# Front-end packages come from npm at the versions pinned in package-lock.json.
FROM node:20-slim AS frontend
WORKDIR /build
COPY package.json package-lock.json ./
COPY scripts/vendor.sh scripts/vendor.sh
RUN bash scripts/vendor.sh

FROM python:3.11-slim
# Set TRUSTED_HOSTS to the names this instance is reached by (links and redirects use them).
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_URL=sqlite:////data/inference_atlas.db
ENV TRUSTED_HOSTS=localhost,127.0.0.1
RUN useradd --create-home --uid 10001 atlas && mkdir -p /data && chown atlas /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY app app
COPY templates templates
COPY static static
COPY seed seed
COPY --from=frontend /build/static/vendor static/vendor
RUN pip install --no-cache-dir -e .
USER atlas
VOLUME /data
EXPOSE 8000
# /healthz is 503 once the process has lost its database; the check needs only python.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["python", "-m", "app.ops.healthcheck"]
# serve runs `inference-atlas migrate` first (the schema upgrade, then seed/ into an empty
# database), under a lock, so several containers may start at once on one database.
CMD ["inference-atlas", "serve", "--host", "0.0.0.0", "--port", "8000"]
