#!/usr/bin/env bash
# Install the pinned front-end packages and copy what the pages load into static/vendor.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
mkdir -p static/vendor
cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
cp node_modules/@picocss/pico/css/pico.min.css static/vendor/pico.min.css
# /docs on an air-gapped instance: Swagger UI from the pinned package, never a CDN.
mkdir -p static/vendor/swagger-ui
cp node_modules/swagger-ui-dist/swagger-ui-bundle.js node_modules/swagger-ui-dist/swagger-ui.css \
  static/vendor/swagger-ui/
