#!/usr/bin/env bash
# The production build (docs/decisions/055), the same steps in deploy/Dockerfile's build stage and in
# scripts/smoke-production.sh:
#   1. a clean install with the development packages (vite, esbuild, the Node 24 pin), whatever NODE_ENV says;
#   2. the client (vite → dist/client) and the server (esbuild → dist/server, scripts/build-server.mjs);
#   3. OUT_DIR: package.json, the lock, dist/ and only the production dependencies (`npm ci --omit=dev`).
# Then, in OUT_DIR: `node dist/server/migrate.js`, then `node dist/server/main.js` (Node 24).
#
# Usage: scripts/build-production.sh OUT_DIR   (outside this checkout: Node would otherwise find the development
# packages of its node_modules from OUT_DIR, and a missing production dependency would go unnoticed).
set -euo pipefail
# OUT_DIR as the caller names it (relative to their folder), before moving to the repository.
OUT=$(realpath -m "${1:?Uso: scripts/build-production.sh CARPETA_DE_SALIDA}")
cd "$(dirname "$0")/.."
REPO=$(pwd -P)
case "$OUT/" in
  "$REPO"/*) echo "✗ $OUT está dentro de $REPO: use una carpeta fuera del repositorio" >&2; exit 1 ;;
esac
mkdir -p "$OUT"

step() { STEP_STARTED=$SECONDS; echo "▶ $1"; }
done_step() { echo "  ✓ $(( SECONDS - STEP_STARTED )) s"; }

step "npm ci (con los paquetes de desarrollo)"
npm ci --include=dev --no-audit --no-fund --loglevel=error
done_step

# npm run puts node_modules/.bin first on PATH: the pinned Node 24 builds, whatever the machine's node is.
step "Compilación del cliente (vite) y del servidor (esbuild)"
npm run --silent build
done_step

step "Carpeta de producción $OUT (solo dependencias de producción)"
rm -rf "${OUT:?}/dist" "$OUT/node_modules"
cp package.json package-lock.json "$OUT/"
mkdir -p "$OUT/dist"
cp -R dist/client dist/server "$OUT/dist/"
(cd "$OUT" && npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error)
done_step
echo "✓ Compilación de producción en $OUT ($(du -sh "$OUT" | cut -f1)): node dist/server/migrate.js; node dist/server/main.js"
