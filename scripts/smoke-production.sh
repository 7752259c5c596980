#!/usr/bin/env bash
# Production smoke test (issue 38, docs/decisions/055): what deploy/Dockerfile and deploy/compose.yaml run, without
# containers. On a clean clone of the committed checkout (HEAD: uncommitted changes are not tested):
#   1. scripts/build-production.sh — the Dockerfile's build stage — into a folder with only production packages;
#   2. a fresh PostgreSQL database; the migrations from the built code (node dist/server/migrate.js);
#   3. the built server (node dist/server/main.js on Node 24) with NODE_ENV=production and everything production
#      requires, WEB_CONCURRENCY=2, mail to a local SMTP listener (tests/smoke/smtp-sink.mjs);
#   4. Caddy in front of it over HTTPS (`tls internal`: the session cookie is `__Host-sid`, Secure, which a browser
#      never keeps over plain http), as a plain process on loopback ports;
#   5. one Chromium journey through Caddy (tests/smoke/production.spec.ts): register with the mailed code, buy by
#      card, download the invoice PDF, buy by SPEI paid by Openpay's webhook;
#   6. the server stops on SIGTERM within its bound.
# Prints each step and its time; exits non-zero on any failure; stops what it started and drops the database and the
# temporary folder even on failure (SMOKE_KEEP=1 keeps the folder, with the logs, for a look).
#
# Two halves, for CI (.ci/run): `--build-only DIR` makes steps 1's clean clone and build into DIR (DIR/repo, DIR/app)
# and stops, so it can run beside the crash tests; `--prebuilt DIR` then runs steps 2–6 on that build (refused when
# DIR/repo is not this checkout's HEAD). Without either, all of it, as before.
#
# Environment: PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres; needs CREATE DATABASE),
# SMOKE_PORT_BASE (default 3640: shop +1, Caddy HTTPS +3 and HTTP +4, SMTP +5), CHROME_PATH (/usr/bin/chromium).
# Installs Debian's caddy when it is missing (root).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd -P)
STARTED=$SECONDS
MODE=all BUILD_DIR=''
case "${1:-}" in
  --build-only) MODE=build BUILD_DIR=$(realpath -m "${2:?Uso: smoke-production.sh --build-only CARPETA}") ;;
  --prebuilt) MODE=run BUILD_DIR=$(realpath -m "${2:?Uso: smoke-production.sh --prebuilt CARPETA}") ;;
  '') ;;
  *) echo "Uso: scripts/smoke-production.sh [--build-only CARPETA | --prebuilt CARPETA]" >&2; exit 2 ;;
esac
BASE=${SMOKE_PORT_BASE:-3640}
SHOP_PORT=$((BASE + 1))
HTTPS_PORT=$((BASE + 3))
HTTP_PORT=$((BASE + 4))
SMTP_PORT=$((BASE + 5))
PG_ADMIN_URL=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
DB_NAME="tienda_smoke_$(date +%s)_$$"
DB_URL="${PG_ADMIN_URL%/*}/$DB_NAME"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tienda-smoke.XXXXXX")
DB_CREATED=0
SHOP_PID='' CADDY_PID='' SMTP_PID=''

STEP='preparación'
step() { STEP=$1; STEP_STARTED=$SECONDS; echo "▶ $STEP"; }
done_step() { echo "⏱ $STEP: $(( SECONDS - STEP_STARTED )) s"; }

# Stops one process this script started: SIGTERM, then SIGKILL (with its children: the cluster's workers) after
# a bound.
stop() {
  local pid=$1 name=$2 waited=0
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt 20 ]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    echo "  $name no terminó en 20 s: SIGKILL"
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ $status -ne 0 ]; then
    echo "✗ Falló en: $STEP"
    for log in shop caddy smtp; do
      if [ -s "$WORK/$log.log" ]; then
        echo "--- últimas líneas de $log.log ---"
        tail -n 30 "$WORK/$log.log"
      fi
    done
  fi
  stop "$CADDY_PID" caddy
  stop "$SHOP_PID" tienda
  stop "$SMTP_PID" smtp
  if [ $DB_CREATED = 1 ]; then
    psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1 ||
      echo "  no se pudo borrar la base $DB_NAME"
  fi
  if [ "${SMOKE_KEEP:-0}" = 1 ]; then
    echo "  carpeta conservada: $WORK"
  else
    local removing=$SECONDS
    rm -rf "$WORK"
    echo "⏱ borrado de $WORK: $(( SECONDS - removing )) s"
  fi
  local total=$((SECONDS - STARTED))
  if [ "$MODE" = build ] && [ $status -eq 0 ]; then
    :
  elif [ $status -eq 0 ]; then
    echo "✓ Prueba de humo de producción en $((total / 60)) min $((total % 60)) s"
  else
    echo "✗ Prueba de humo de producción falló tras $((total / 60)) min $((total % 60)) s"
  fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits until URL answers 2xx (curl's extra options before it), or fails after SECONDS; stops early when PID died.
wait_for() {
  local url=$1 seconds=$2 pid=$3
  shift 3
  for _ in $(seq 1 "$seconds"); do
    if curl -fsS -o /dev/null --max-time 2 "$@" "$url" 2>/dev/null; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then echo "  el proceso terminó antes de responder en $url"; return 1; fi
    sleep 1
  done
  echo "  $url no respondió en $seconds s"
  return 1
}

step "Herramientas: Caddy, Chromium, PostgreSQL"
if ! command -v caddy >/dev/null; then
  echo "  instalando caddy de Debian"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null
fi
CHROME=${CHROME_PATH:-/usr/bin/chromium}
[ -x "$CHROME" ] || { echo "  no se encontró Chromium en $CHROME (apt-get install chromium)"; exit 1; }
psql "$PG_ADMIN_URL" -qtAc 'select 1' >/dev/null || { echo "  PostgreSQL no responde en $PG_ADMIN_URL"; exit 1; }
echo "  $(caddy version | cut -d' ' -f1), $("$CHROME" --version 2>/dev/null), carpeta $WORK"
done_step

# Where the clean clone and the production folder are: in this run's folder, or in the one --build-only made.
REPO=${BUILD_DIR:-$WORK}/repo
APP=${BUILD_DIR:-$WORK}/app
if [ "$MODE" = run ]; then
  step "Compilación de producción hecha antes en $BUILD_DIR (--build-only)"
  [ "$(git -C "$REPO" rev-parse HEAD 2>/dev/null)" = "$(git -C "$SRC" rev-parse HEAD)" ] && [ -f "$APP/dist/server/main.js" ] ||
    { echo "  $BUILD_DIR no tiene la compilación de $(git -C "$SRC" rev-parse --short HEAD)"; exit 1; }
else
  step "Copia limpia del repositorio (git clone de $(git -C "$SRC" rev-parse --short HEAD))"
  rm -rf "$REPO" "$APP"
  git clone -q "$SRC" "$REPO"
  done_step

  step "Compilación de producción (scripts/build-production.sh, la etapa de construcción del Dockerfile)"
  bash "$REPO/scripts/build-production.sh" "$APP" 2>&1 | sed 's/^/  /'
fi
# The Node 24 of the build's pin (the binary only: the server's packages are those of $APP/node_modules).
NODE="$REPO/node_modules/node/bin/node"
"$NODE" -e 'if (Number(process.versions.node.split(".")[0]) < 24) process.exit(1)' ||
  { echo "  $NODE no es Node 24"; exit 1; }
if [ -d "$APP/node_modules/vite" ] || [ -d "$APP/node_modules/tsx" ]; then
  echo "  la carpeta de producción tiene paquetes de desarrollo"; exit 1
fi
echo "  Node $("$NODE" --version); $(ls "$APP/node_modules" | wc -l) paquetes de producción"
done_step
if [ "$MODE" = build ]; then
  echo "✓ Compilación de la prueba de humo lista en $BUILD_DIR ($(( SECONDS - STARTED )) s); siga con --prebuilt $BUILD_DIR"
  exit 0
fi

WEBHOOK_USER=openpay
WEBHOOK_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
# Only what production needs, nothing of this shell's environment (env -i).
PROD_ENV=(
  "PATH=/usr/bin:/bin"
  "HOME=$WORK"
  NODE_ENV=production
  "PORT=$SHOP_PORT"
  HOST=127.0.0.1
  "DATABASE_URL=$DB_URL"
  "PUBLIC_URL=https://localhost:$HTTPS_PORT"
  TRUST_PROXY=127.0.0.1
  "SMTP_URL=smtp://127.0.0.1:$SMTP_PORT"
  'MAIL_FROM="Ciencia Occidente (prueba)" <ventas@example.mx>'
  PAYMENT_GATEWAY=sandbox
  PAYMENTS_SANDBOX_IN_PRODUCTION=true
  "OPENPAY_WEBHOOK_USER=$WEBHOOK_USER"
  "OPENPAY_WEBHOOK_PASSWORD=$WEBHOOK_PASSWORD"
  CFDI_PAC=sandbox
  CFDI_SANDBOX_IN_PRODUCTION=true
  WEB_CONCURRENCY=2
  SEED_DEMO=true
  API_DOCS=false
  LOG_LEVEL=info
)

step "Base de datos nueva $DB_NAME y migraciones del código compilado (node dist/server/migrate.js)"
psql "$PG_ADMIN_URL" -qc "CREATE DATABASE $DB_NAME"
DB_CREATED=1
(cd "$APP" && env -i "${PROD_ENV[@]}" "$NODE" dist/server/migrate.js) 2>&1 | sed 's/^/  /'
done_step

step "Correo: servidor SMTP local en 127.0.0.1:$SMTP_PORT"
(cd "$REPO" && exec env SMTP_PORT="$SMTP_PORT" MAIL_DIR="$WORK/mail" "$NODE" tests/smoke/smtp-sink.mjs) \
  >"$WORK/smtp.log" 2>&1 &
SMTP_PID=$!
for _ in $(seq 1 30); do grep -q listo "$WORK/smtp.log" 2>/dev/null && break; sleep 0.5; done
grep -q listo "$WORK/smtp.log" || { echo "  el servidor SMTP no arrancó"; exit 1; }
done_step

step "Tienda: node dist/server/main.js (NODE_ENV=production, WEB_CONCURRENCY=2) en 127.0.0.1:$SHOP_PORT"
(cd "$APP" && exec env -i "${PROD_ENV[@]}" "$NODE" --enable-source-maps dist/server/main.js) \
  >"$WORK/shop.log" 2>&1 &
SHOP_PID=$!
# The first start fills the demo catalogue (SEED_DEMO=true) before the workers listen.
wait_for "http://127.0.0.1:$SHOP_PORT/readyz" 300 "$SHOP_PID"
# /readyz answers from the first worker; the primary says 'tienda lista' once every worker listens.
ready() { grep -m 1 '"workers":.*"msg":"tienda lista"' "$WORK/shop.log"; }
for _ in $(seq 1 60); do ready >/dev/null && break; kill -0 "$SHOP_PID" || exit 1; sleep 1; done
ready | cut -c 1-240 | sed 's/^/  /' || { echo "  los procesos de trabajo no quedaron listos en 60 s"; exit 1; }
done_step

step "Caddy: https://localhost:$HTTPS_PORT → 127.0.0.1:$SHOP_PORT (tls internal)"
cat >"$WORK/Caddyfile" <<EOF
{
	admin off
	http_port $HTTP_PORT
	https_port $HTTPS_PORT
	auto_https disable_redirects
	skip_install_trust
	storage file_system $WORK/caddy
}

https://localhost:$HTTPS_PORT {
	bind 127.0.0.1
	tls internal
	reverse_proxy 127.0.0.1:$SHOP_PORT {
		flush_interval -1
		health_uri /readyz
		health_interval 5s
	}
}
EOF
(cd "$WORK" && exec env HOME="$WORK" XDG_DATA_HOME="$WORK/caddy" XDG_CONFIG_HOME="$WORK/caddy" \
  caddy run --config "$WORK/Caddyfile" --adapter caddyfile) >"$WORK/caddy.log" 2>&1 &
CADDY_PID=$!
wait_for "https://localhost:$HTTPS_PORT/readyz" 60 "$CADDY_PID" -k
done_step

step "Recorrido en Chromium a través de Caddy (tests/smoke/production.spec.ts)"
(cd "$REPO" && CI=true SMOKE_URL="https://localhost:$HTTPS_PORT" SMOKE_MAIL_DIR="$WORK/mail" \
  SMOKE_DATABASE_URL="$DB_URL" SMOKE_WEBHOOK_USER="$WEBHOOK_USER" SMOKE_WEBHOOK_PASSWORD="$WEBHOOK_PASSWORD" \
  SMOKE_ARTIFACTS="$WORK/artifacts" CHROME_PATH="$CHROME" \
  npx playwright test -c tests/smoke/playwright.config.ts) 2>&1 | sed 's/^/  /'
done_step

step "Errores en el registro de la tienda"
errors=$(grep -c '"level":\(50\|60\)' "$WORK/shop.log" || true)
if [ "$errors" != 0 ]; then
  grep '"level":\(50\|60\)' "$WORK/shop.log" | head -n 10 | sed 's/^/  /'
  echo "  $errors líneas de error en el registro de la tienda"
  exit 1
fi
echo "  ninguno"
done_step

step "Cierre ordenado con SIGTERM"
kill -TERM "$SHOP_PID"
for _ in $(seq 1 20); do kill -0 "$SHOP_PID" 2>/dev/null || break; sleep 1; done
if kill -0 "$SHOP_PID" 2>/dev/null; then echo "  la tienda sigue viva 20 s después de SIGTERM"; exit 1; fi
set +e
wait "$SHOP_PID"
code=$?
set -e
SHOP_PID=''
[ "$code" = 0 ] || { echo "  la tienda terminó con el código $code"; exit 1; }
done_step
