#!/usr/bin/env bash
# Installs what `npm test` starts for the durable ledgers' tests (src/tests/setup/services.ts):
# Debian's redis-server and PostgreSQL. The tests start their own servers on free ports of
# 127.0.0.1 and stop them when the run ends, so the services the packages install are stopped and
# disabled where systemd runs them: nothing listens on 6379/5432 because of this script.
set -euo pipefail

if [ -x /usr/bin/redis-server ] && ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  echo "redis-server and postgresql are installed"
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "install-services: no apt-get here; install redis-server and PostgreSQL (initdb, pg_ctl) with your package manager" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server postgresql >/dev/null
if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  $sudo systemctl disable --now redis-server postgresql >/dev/null 2>&1 || true
fi
/usr/bin/redis-server --version
ls -d /usr/lib/postgresql/*/bin
