#!/usr/bin/env bash
# Tail latency with a backlog, build by build and collector by collector, alternated: open loops of
# SendMessage and SendMessageBatch at a fixed rate over a 1,000,000-message backlog, each run's
# histograms (.hgrm, .hlog, per-second.csv), the server's GC log and its pauses kept side by side.
# The rate is half the closed-loop peak measured first (first build, first collector; Open Q1 of
# the tails design page: one rate for every configuration, so each faces the same load).
#
# usage: loadtest/scripts/tails-bench.sh OUTDIR
# env:   JARS        builds to alternate, space-separated (default target/sluice.jar)
#        COLLECTORS  default "g1-17 g1-25 zgc-25 shen-gen-25"; a name is <collector>-<JDK>, the
#                    collector one of g1, g1-tt1 (MaxTenuringThreshold=1), g1-tt1-p5 (and
#                    MaxGCPauseMillis=5), g1-p10 (MaxGCPauseMillis=10), g1-pt (AlwaysPreTouch),
#                    g1-p10-pt (both), g1-p5-pt (5 ms), g1-p10-pt-coh (and compact headers), zgc, zgc-coh, shen,
#                    shen-gen, shen-gen-pt, shen-gen-coh, g1-coh
#        ROUNDS (2), SEND_RATE and BATCH_RATE (requests/s; measured when unset), PREFILL (1000000),
#        WARMUP (10), DURATION (30), HEAP (8g: the backlog a batch run leaves must fit its budget),
#        SCENARIOS (default "send send-batch"), BODY_BYTES (100: each message's body), PARKED (10000: parked long polls measured per build
#        and collector with the JVM's default heap, as the server runs by default; 0 to skip)
# Build first: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tails-bench.sh OUTDIR}
JARS=${JARS:-target/sluice.jar}
COLLECTORS=${COLLECTORS:-g1-17 g1-25 zgc-25 shen-gen-25}
ROUNDS=${ROUNDS:-2}; PREFILL=${PREFILL:-1000000}; WARMUP=${WARMUP:-10}; DURATION=${DURATION:-30}
HEAP=${HEAP:-8g}; SCENARIOS=${SCENARIOS:-send send-batch}; PARKED=${PARKED:-10000}; BODY_BYTES=${BODY_BYTES:-100}
LOADGEN=loadtest/target/sluice-loadtest.jar
mkdir -p "$out"

java_of() {
  case $1 in
    *-17) echo /usr/lib/jvm/java-17-openjdk-amd64/bin/java ;;
    *-25) echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ;;
    *) echo "unknown JDK in $1" >&2; exit 2 ;;
  esac
}

flags_of() {
  case ${1%-*} in
    g1) echo "-XX:+UseG1GC" ;;
    g1-coh) echo "-XX:+UseG1GC -XX:+UseCompactObjectHeaders" ;;
    g1-tt1) echo "-XX:+UseG1GC -XX:MaxTenuringThreshold=1" ;;
    g1-tt1-p5) echo "-XX:+UseG1GC -XX:MaxTenuringThreshold=1 -XX:MaxGCPauseMillis=5" ;;
    g1-p10) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=10" ;;
    g1-pt) echo "-XX:+UseG1GC -XX:+AlwaysPreTouch" ;;
    g1-p10-pt) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=10 -XX:+AlwaysPreTouch" ;;
    g1-p5-pt) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=5 -XX:+AlwaysPreTouch" ;;
    g1-p10-pt-coh) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=10 -XX:+AlwaysPreTouch -XX:+UseCompactObjectHeaders" ;;
    zgc) echo "-XX:+UseZGC" ;;
    zgc-coh) echo "-XX:+UseZGC -XX:+UseCompactObjectHeaders" ;;
    shen) echo "-XX:+UseShenandoahGC" ;;
    shen-gen) echo "-XX:+UseShenandoahGC -XX:ShenandoahGCMode=generational" ;;
    shen-gen-pt) echo "-XX:+UseShenandoahGC -XX:ShenandoahGCMode=generational -XX:+AlwaysPreTouch" ;;
    shen-gen-coh) echo "-XX:+UseShenandoahGC -XX:ShenandoahGCMode=generational -XX:+UseCompactObjectHeaders" ;;
    *) echo "unknown collector in $1" >&2; exit 2 ;;
  esac
}

build_of() { git -C "$(dirname "$(readlink -f "$1")")/.." rev-parse --short HEAD 2>/dev/null || basename "$1"; }

# run JAR COLLECTOR DIR LOADGEN-ARGS...: one server, one load generator run, the GC pauses after.
run() {
  local jar=$1 collector=$2 dir=$3; shift 3
  local heap="-Xms$HEAP -Xmx$HEAP"
  [ "$1" = parked ] && heap=""  # memory per connection is measured with the default heap
  mkdir -p "$dir"
  echo "$(build_of "$jar") $collector $1" > "$dir/label"
  SERVER_JAVA=$(java_of "$collector") SERVER_JAR=$jar SERVER_LOG=$dir/server.log \
  JAVA_OPTS="$heap $(flags_of "$collector") -Xlog:gc*,safepoint:file=$dir/gc.log:time,uptime,level,tags:filesize=0" \
    loadtest/scripts/with-server.sh java -Xms1g -Xmx1g -Xlog:gc:file="$dir/loadgen-gc.log":time,uptime:filesize=0 \
      -jar "$LOADGEN" "$@" --out "$dir" --server-pid '$SERVER_PID' > "$dir/summary.txt" 2>&1 || echo "run failed: $dir" >&2
  java -cp "$LOADGEN" dev.sluice.loadtest.GcPauses "$dir/gc.log" "$dir/gc-pauses.csv" >> "$dir/summary.txt" 2>&1 || true
  java -cp "$LOADGEN" dev.sluice.loadtest.GcPauses "$dir/loadgen-gc.log" > "$dir/loadgen-gc-summary.txt" 2>&1 || true
  gzip -f "$dir/gc.log"  # kept, compressed, beside the figures it explains
  echo "== $dir"; grep -E 'req/s|CPU per|service time|generator lag|INVALID|pause|safepoint|stall|RSS|live heap' "$dir/summary.txt" || true
}

first_jar=${JARS%% *}; first_collector=${COLLECTORS%% *}
peak() { # scenario → requests/s of a closed loop at 64 users, no backlog
  local dir="$out/peak-$1"
  run "$first_jar" "$first_collector" "$dir" "$1" --users 64 --warmup 10 --duration 20 --body-bytes "$BODY_BYTES" >&2
  grep -oE '^[A-Za-z]+: [0-9]+ req/s' "$dir/summary.txt" | grep -oE '[0-9]+ req/s' | grep -oE '[0-9]+'
}
if [ -z "${SEND_RATE:-}" ]; then SEND_RATE=$(( $(peak send) / 2 )); fi
if [ -z "${BATCH_RATE:-}" ]; then BATCH_RATE=$(( $(peak send-batch) / 2 )); fi
echo "rates: send $SEND_RATE req/s, send-batch $BATCH_RATE req/s ($(( BATCH_RATE * 10 )) msgs/s)" | tee "$out/rates.txt"

for round in $(seq 1 "$ROUNDS"); do
  for collector in $COLLECTORS; do
    for jar in $JARS; do
      build=$(build_of "$jar")
      for scenario in $SCENARIOS; do
        rate=$SEND_RATE; [ "$scenario" = send-batch ] && rate=$BATCH_RATE
        run "$jar" "$collector" "$out/r$round-$build-$collector-$scenario" "$scenario" --rate "$rate" \
          --prefill "$PREFILL" --warmup "$WARMUP" --duration "$DURATION" --body-bytes "$BODY_BYTES"
      done
      if [ "$PARKED" -gt 0 ]; then
        run "$jar" "$collector" "$out/r$round-$build-$collector-parked" parked --parked "$PARKED" --top-classes 10
      fi
    done
  done
done
echo "plot: python3 loadtest/scripts/plot-latency.py $out"
