#!/usr/bin/env bash
# The end-to-end benchmark in one command: builds the benchmark jar (and the service jar when Chronix
# is a target and its jar is missing), then runs `bench e2e` with the options given here, e.g.
#   bench/run-e2e.sh                                   # Chronix, QuestDB, InfluxDB; 100 hosts x 1 day
#   bench/run-e2e.sh --targets questdb,influxdb --hosts 100 --duration 13h
# No target is asked to flush: the queries follow the load as a user's would.
# Options: see bench/README.md. BENCH_BUILD=0 skips the builds.
set -euo pipefail
cd "$(dirname "$0")/.."

# A Java 25 launcher without needing JAVA_HOME: the first of JAVA, JAVA_HOME, the JDKs installed
# under /usr/lib/jvm and the PATH's java whose specification version is 25 or later.
find_java() {
  local candidates=()
  [[ -n "${JAVA:-}" ]] && candidates+=("$JAVA")
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME/bin/java")
  for j in /usr/lib/jvm/*/bin/java; do [[ -x "$j" ]] && candidates+=("$j"); done
  command -v java >/dev/null && candidates+=("$(command -v java)")
  for j in "${candidates[@]}"; do
    local v
    v=$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [[ -n "$v" && "${v%%.*}" -ge 25 ]]; then echo "$j"; return 0; fi
  done
  echo "no Java 25 or later found (set JAVA=/path/to/java)" >&2
  return 1
}
JAVA_BIN=$(find_java)

targets="chronix,questdb,influxdb"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --targets) targets="${args[$((i + 1))]}" ;;
    --targets=*) targets="${args[$i]#--targets=}" ;;
  esac
done

if [[ "${BENCH_BUILD:-1}" == 1 ]]; then
  ./mvnw -B -q -Pbench -pl bench -am package -DskipTests
  if [[ ",$targets," == *",chronix,"* && ! -f api/target/chronix.jar ]]; then
    ./mvnw -B -q -pl api -am package -DskipTests
  fi
fi
if [[ ",$targets," == *",influxdb,"* ]] && ! command -v influxd >/dev/null; then
  echo "influxd not found: install InfluxDB 1.x (Debian: apt-get install influxdb) or drop it from --targets" >&2
  exit 1
fi

exec "$JAVA_BIN" -cp bench/target/benchmarks.jar io.chronix.bench.cli.Bench e2e "${args[@]}"
