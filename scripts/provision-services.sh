#!/usr/bin/env bash
# Provision the servers that the integration tests start for themselves:
#   PostgreSQL 15 (server binaries + pg_trgm), the pgvector extension, and redis-server.
#
# - Idempotent and fast (well under 2 s) when everything is already there.
# - As root with apt: installs what is missing from Debian's packages. pgvector is not
#   packaged for Debian 12, so its Debian 13 ("trixie") source package is fetched with
#   `apt-get source` through a private, throw-away apt configuration (the machine's own
#   apt sources, lists and caches are left untouched) and built against PostgreSQL 15.
# - Never leaves a system service running that it started (cluster 15/main, redis-server):
#   the tests run their own throw-away servers on free loopback ports.
# - Without root or apt: prints one loud line saying which services will be unavailable
#   and exits 0; the tests that need them then skip with the reason.
#
# Environment: PG_MAJOR (default 15); COGNIMEM_SKIP_PROVISION=1 skips everything.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
PG_BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
PG_LIB="/usr/lib/postgresql/${PG_MAJOR}/lib"
PG_SHARE="/usr/share/postgresql/${PG_MAJOR}"
PGVECTOR_SUITE="trixie"
export DEBIAN_FRONTEND=noninteractive

START_S=$(date +%s.%N)
WORK=""
LOG=""

elapsed() { awk -v s="$START_S" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
say() { printf 'provision-services: %s\n' "$*"; }
loud() { printf '\n*** provision-services: %s ***\n\n' "$*" >&2; }

cleanup() {
    if [ -n "$WORK" ] && [ -d "$WORK" ]; then rm -rf -- "$WORK"; fi
}
trap cleanup EXIT

# Run a step quietly; on failure show its output and stop.
run() {
    local what="$1"
    shift
    local rc=0
    "$@" >"$LOG" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        loud "FAILED: ${what} (exit status ${rc}); output follows"
        tail -n 60 "$LOG" >&2 || true
        exit 1
    fi
}

have_pg_server() {
    [ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] &&
        [ -x "$PG_BIN/psql" ] && [ -f "$PG_SHARE/extension/pg_trgm.control" ]
}
have_pgvector() { [ -f "$PG_SHARE/extension/vector.control" ] && [ -f "$PG_LIB/vector.so" ]; }
have_redis() { command -v redis-server >/dev/null 2>&1; }

missing_services() {
    local out=()
    have_pg_server || out+=("postgres (no PostgreSQL ${PG_MAJOR} server in ${PG_BIN})")
    if have_pg_server && ! have_pgvector; then
        out+=("postgres (pgvector extension not installed for PostgreSQL ${PG_MAJOR})")
    fi
    have_redis || out+=("redis (redis-server not on PATH)")
    local IFS=';'
    printf '%s' "${out[*]}"
}

if [ "${COGNIMEM_SKIP_PROVISION:-0}" = "1" ]; then
    say "COGNIMEM_SKIP_PROVISION=1: skipped; missing: $(missing_services || true)"
    exit 0
fi

# --- fast path -------------------------------------------------------------------------
if have_pg_server && have_pgvector && have_redis; then
    say "PostgreSQL ${PG_MAJOR} + pgvector + redis-server already present ($(elapsed) s)"
    exit 0
fi

MISSING="$(missing_services)"
if [ "$(id -u)" -ne 0 ]; then
    loud "SERVICES UNAVAILABLE: ${MISSING} -- not root, cannot install; tests needing them will SKIP"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
    loud "SERVICES UNAVAILABLE: ${MISSING} -- apt-get not available, cannot install; tests needing them will SKIP"
    exit 0
fi

WORK="$(mktemp -d /tmp/provision-services.XXXXXX)"
chmod 755 "$WORK"
LOG="$WORK/step.log"

APT_OPTS=(-q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef
    -o Dpkg::Options::=--force-confold)

# --- system services: remember what was running, stop what the install started -------
cluster_online() {
    command -v pg_lsclusters >/dev/null 2>&1 &&
        pg_lsclusters -h 2>/dev/null | awk -v v="$PG_MAJOR" '$1 == v && $2 == "main" && $4 == "online" { f = 1 } END { exit !f }'
}
redis_service_running() {
    # The system service's pid file (not any redis-server: tests run their own).
    local pidfile=/run/redis/redis-server.pid pid
    [ -s "$pidfile" ] || return 1
    pid="$(cat "$pidfile" 2>/dev/null)" || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}
stop_service() {
    local name="$1"
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl stop "$name" >/dev/null 2>&1 || true
    elif command -v service >/dev/null 2>&1; then
        service "$name" stop >/dev/null 2>&1 || true
    elif [ -x "/etc/init.d/$name" ]; then
        "/etc/init.d/$name" stop >/dev/null 2>&1 || true
    fi
}
CLUSTER_WAS_ONLINE=0
REDIS_WAS_RUNNING=0
cluster_online && CLUSTER_WAS_ONLINE=1
redis_service_running && REDIS_WAS_RUNNING=1

# --- Debian packages -------------------------------------------------------------------
PKGS=()
have_pg_server || PKGS+=("postgresql-${PG_MAJOR}")
if ! have_pgvector; then
    PKGS+=("postgresql-server-dev-${PG_MAJOR}")
    command -v make >/dev/null 2>&1 || PKGS+=(make)
    command -v gcc >/dev/null 2>&1 || PKGS+=(gcc)
    command -v dpkg-source >/dev/null 2>&1 || PKGS+=(dpkg-dev)
    command -v xz >/dev/null 2>&1 || PKGS+=(xz-utils)
fi
have_redis || PKGS+=(redis-server)

apt_install() {
    apt-get install "${APT_OPTS[@]}" --no-install-recommends "${PKGS[@]}"
}
if [ "${#PKGS[@]}" -gt 0 ]; then
    need_update=0
    for p in "${PKGS[@]}"; do
        if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then need_update=1; fi
    done
    if [ "$need_update" = 1 ]; then
        run "apt-get update" apt-get update -q -o DPkg::Lock::Timeout=300
    fi
    say "installing: ${PKGS[*]}"
    if ! apt_install >"$LOG" 2>&1; then
        if [ "$need_update" = 0 ]; then
            # Stale package lists (e.g. a mirror that moved on): refresh once and retry.
            run "apt-get update" apt-get update -q -o DPkg::Lock::Timeout=300
            run "apt-get install ${PKGS[*]}" apt_install
        else
            loud "FAILED: apt-get install ${PKGS[*]}; output follows"
            tail -n 60 "$LOG" >&2 || true
            exit 1
        fi
    fi
fi

# --- pgvector from Debian 13's source package ------------------------------------------
# The mirror URI of this machine's own Debian archive: the first URIs: line of the
# deb822 stanza (under /etc/apt/sources.list.d/) whose Suites name this release's
# codename, else the first such `deb` line of /etc/apt/sources.list.
mirror_uri() {
    local codename f
    # shellcheck disable=SC1091
    codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-bookworm}")"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v want="$codename" '
            function flush() {
                if (uri != "" && ok && enabled) { print uri; found = 1; exit }
                uri = ""; ok = 0; enabled = 1
            }
            BEGIN { enabled = 1 }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "uris:" && uri == "" { uri = $2 }
            tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == want) ok = 1 }
            tolower($1) == "enabled:" && tolower($2) == "no" { enabled = 0 }
            END { if (!found) flush() }
        ' "$f" | head -n 1 | grep . && return 0
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v want="$codename" '
            $1 != "deb" { next }
            {
                i = 2
                if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                if ($(i + 1) == want) { print $i; exit }
            }
        ' "$f" | head -n 1 | grep . && return 0
    done
    return 1
}

if ! have_pgvector; then
    if ! URI="$(mirror_uri)"; then
        loud "FAILED: no Debian archive URI found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"
        exit 1
    fi
    KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
    SIGNED=""
    [ -f "$KEYRING" ] && SIGNED="[signed-by=${KEYRING}] "
    mkdir -p "$WORK/apt/sources.list.d" "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" "$WORK/src"
    printf 'deb-src %s%s %s main\n' "$SIGNED" "$URI" "$PGVECTOR_SUITE" >"$WORK/apt/sources.list"
    # Downloads run as the unprivileged _apt user when it exists (apt's sandbox).
    if id _apt >/dev/null 2>&1; then
        chown -R _apt "$WORK/apt/lists" "$WORK/apt/cache" "$WORK/src"
    fi
    PRIVATE_APT=(
        -o "Dir::Etc::sourcelist=$WORK/apt/sources.list"
        -o "Dir::Etc::sourceparts=$WORK/apt/sources.list.d"
        -o "Dir::State::Lists=$WORK/apt/lists"
        -o "Dir::Cache=$WORK/apt/cache"
        -o "Dir::Cache::pkgcache="
        -o "Dir::Cache::srcpkgcache="
        -o "Acquire::Languages=none"
        -o "APT::Get::List-Cleanup=false"
    )
    run "apt-get update (private deb-src ${PGVECTOR_SUITE} list)" apt-get "${PRIVATE_APT[@]}" -q update
    # apt has already checked the files' hashes against the signed index.
    (cd "$WORK/src" && run "apt-get source pgvector (${PGVECTOR_SUITE})" \
        apt-get "${PRIVATE_APT[@]}" -q -o "DPkg::Source-Options=-x --no-check" source pgvector)
    SRC_DIR="$(find "$WORK/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)"
    if [ -z "$SRC_DIR" ]; then
        loud "FAILED: apt-get source pgvector produced no source tree"
        exit 1
    fi
    # OPTFLAGS= : no -march=native, so the library does not depend on this host's CPU.
    run "build ${SRC_DIR##*/}" make -C "$SRC_DIR" -j"$(nproc)" \
        PG_CONFIG="$PG_BIN/pg_config" OPTFLAGS=
    run "install ${SRC_DIR##*/}" make -C "$SRC_DIR" PG_CONFIG="$PG_BIN/pg_config" OPTFLAGS= install
    say "built and installed ${SRC_DIR##*/} for PostgreSQL ${PG_MAJOR}"
fi

# --- leave no system service running that this script started ---------------------------
if [ "$CLUSTER_WAS_ONLINE" = 0 ] && cluster_online; then
    pg_ctlcluster "$PG_MAJOR" main stop >/dev/null 2>&1 || stop_service postgresql
fi
if [ "$REDIS_WAS_RUNNING" = 0 ] && redis_service_running; then
    stop_service redis-server
fi

MISSING="$(missing_services)"
if [ -n "$MISSING" ]; then
    loud "FAILED: still missing after provisioning: ${MISSING}"
    exit 1
fi
say "PostgreSQL ${PG_MAJOR} + pgvector + redis-server provisioned in $(elapsed) s"
