#!/usr/bin/env bash
# The cluster benchmark (issue 17): three nodes of target/sluice.jar on 127.0.0.1 sharing one
# throwaway PostgreSQL (fsync on), started the way the README's "Cluster" block starts them.
# Phases (all by default, or those named):
#   hop       SendMessage and the send-batch → receive → delete-batch loop on one queue, through the
#             node that holds it and through one that forwards it, alternated ROUNDS times:
#             closed-loop throughput, open-loop latency at RATE sends or LOOP_RATE loops a second (from
#             when each request was due), and the CPU time of every node per request
#   scale     the loop on three queues by three clients at once: first on one node alone, then on
#             three nodes each holding one of the queues, each client through the node holding its
#             queue, then each through the next node, which forwards every call
#   failover  KILLS times: SIGKILL the node holding a queue while a client probes it through another
#             node; the time from the kill until a send, a receive and a delete all succeed again
#   handover  a queue of HANDOVER_MESSAGES messages; HANDOVERS times its node is stopped with SIGTERM
#             (hands the shard over) and started again (takes it back): what the client saw, and
#             the nodes' own hand-over and load times
# usage: loadtest/scripts/cluster-bench.sh [hop] [scale] [failover] [handover]
# settings: OUTDIR (loadtest/results/cluster-<date>), ROUNDS (2), SECONDS_PER_RUN (20), RATE (1000), LOOP_RATE (150),
#   USERS (64), KILLS (10), HANDOVERS (3), HANDOVER_MESSAGES (100000), SHARDS (64), NODE_OPTS (JVM
#   options of each node, none by default), HTTP_BASE (9341), CLUSTER_BASE (5741), PGPORT (5598).
# Needs both jars: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../.."
export PGPORT=${PGPORT:-5598}
if [ -z "${SLUICE_PG_URL:-}" ]; then
  exec loadtest/scripts/with-postgres.sh "$self" "$@"
fi
PHASES=("$@"); [ ${#PHASES[@]} -eq 0 ] && PHASES=(hop scale failover handover)
OUTDIR=${OUTDIR:-loadtest/results/cluster-$(date +%F)}
ROUNDS=${ROUNDS:-2}; SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}; RATE=${RATE:-1000}; LOOP_RATE=${LOOP_RATE:-150}; USERS=${USERS:-64}
KILLS=${KILLS:-10}; HANDOVERS=${HANDOVERS:-3}; HANDOVER_MESSAGES=${HANDOVER_MESSAGES:-100000}
SHARDS=${SHARDS:-64}; HTTP_BASE=${HTTP_BASE:-9341}; CLUSTER_BASE=${CLUSTER_BASE:-5741}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
LOADTEST=(java -jar loadtest/target/sluice-loadtest.jar)
mkdir -p "$OUTDIR"
SUMMARY="$OUTDIR/summary.txt"
say() { echo "$*" | tee -a "$SUMMARY"; }
now_ms() { date +%s%3N; }
sql() { "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -At -c "$1"; }

export SLUICE_CLUSTER_ENABLED=true SLUICE_CLUSTER_SHARDS=$SHARDS
SLUICE_CLUSTER_MEMBERS=$(for n in 0 1 2; do echo -n "127.0.0.1:$((CLUSTER_BASE + 10 * n)),"; done)
export SLUICE_CLUSTER_MEMBERS=${SLUICE_CLUSTER_MEMBERS%,}
PIDS=("" "" "")
STARTS=(0 0 0)
port() { echo $((HTTP_BASE + $1)); }
url() { echo "http://127.0.0.1:$(port "$1")"; }

start_node() { # n: starts node n (does not wait)
  local n=$1
  STARTS[$n]=$((STARTS[$n] + 1))
  SLUICE_HTTP_PORT=$(port "$n") SLUICE_CLUSTER_PORT=$((CLUSTER_BASE + 10 * n)) \
    SLUICE_CLUSTER_EVENT_BUS_PORT=$((CLUSTER_BASE + 10 * n + 1)) \
    java ${NODE_OPTS:-} -jar target/sluice.jar >"$OUTDIR/node$n-${STARTS[$n]}.log" 2>&1 &
  PIDS[$n]=$!
}
stop_node() { # n [signal]: signals node n and waits for it to exit
  local n=$1 sig=${2:-TERM}
  [ -n "${PIDS[$n]}" ] || return 0
  kill -"$sig" "${PIDS[$n]}" 2>/dev/null || true
  wait "${PIDS[$n]}" 2>/dev/null || true
  PIDS[$n]=""
}
stop_all() { for n in 0 1 2; do stop_node "$n"; done; }
trap 'for p in "${PIDS[@]}"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done; true' EXIT
await_ready() { # n
  for _ in $(seq 1 600); do curl -sf -o /dev/null "$(url "$1")/health/ready" && return 0; sleep 0.1; done
  echo "node $1 not ready in 60 s" >&2; exit 1
}
node_id() { # n: the node id of node n, from its member row
  sql "SELECT node_id FROM sluice_cluster_members WHERE expires_at > clock_timestamp() AND holder LIKE '%pid ${PIDS[$1]}'"
}
running() { local r=(); for n in 0 1 2; do [ -n "${PIDS[$n]}" ] && r+=("$n"); done; echo "${r[@]}"; }
await_balanced() { # every shard leased live by a running node, each holding its share, all loaded
  local nodes; read -ra nodes <<<"$(running)"
  local k=${#nodes[@]} ids="" n
  for _ in $(seq 1 600); do
    ids=""
    for n in "${nodes[@]}"; do ids+="'$(node_id "$n")',"; done
    local counts
    counts=$(sql "SELECT count(*) FROM sluice_shard_leases WHERE NOT released AND expires_at > clock_timestamp()
      AND owner IN (${ids%,}) GROUP BY owner" | sort -n | tr '\n' ' ')
    local total=0 min=999999 max=0 c
    for c in $counts; do total=$((total + c)); ((c < min)) && min=$c; ((c > max)) && max=$c; done
    if [ "$total" = "$SHARDS" ] && [ "$(echo "$counts" | wc -w)" = "$k" ] && ((max - min <= 1)); then
      local serving=0
      for n in "${nodes[@]}"; do serving=$((serving + $(grep -c "Serving shard" "$OUTDIR/node$n-${STARTS[$n]}.log" || true))); done
      local gone=0
      for n in "${nodes[@]}"; do gone=$((gone + $(grep -cE "Handed over shard|Dropped shard" "$OUTDIR/node$n-${STARTS[$n]}.log" || true))); done
      ((serving - gone >= SHARDS)) && return 0
    fi
    sleep 0.2
  done
  echo "not balanced in 120 s over nodes ${nodes[*]}: $counts" >&2; exit 1
}
start_nodes() { # n...: starts them at once, waits until ready and balanced
  local n
  for n in "$@"; do start_node "$n"; done
  for n in "$@"; do await_ready "$n"; done
  await_balanced
}
owner_of_shard() { # shard: the index of the running node holding it
  local id n
  id=$(sql "SELECT owner FROM sluice_shard_leases WHERE shard = $1 AND NOT released AND expires_at > clock_timestamp()")
  for n in $(running); do [ "$(node_id "$n")" = "$id" ] && { echo "$n"; return; }; done
  echo "no running node holds shard $1" >&2; exit 1
}
queue_on() { # n prefix: a queue name whose shard node n holds now
  local shards
  shards=$(sql "SELECT string_agg(shard::text, ',') FROM sluice_shard_leases WHERE NOT released
    AND expires_at > clock_timestamp() AND owner = '$(node_id "$1")'")
  java -cp target/sluice.jar loadtest/scripts/ShardOf.java "$SHARDS" "$2" "$shards" | cut -d' ' -f1
}
shard_of() { java -cp target/sluice.jar loadtest/scripts/ShardOf.java "$SHARDS" "$1"; }
ticks() { # pids...: CPU ticks (user + system) used by them so far
  local t=0 p
  for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo "$t"
}
HZ=$(getconf CLK_TCK)
# a loadtest run through node n on queue q, with CPU per request of each node: prints one line
measured_run() { # label n q scenario [args...]
  local label=$1 n=$2 q=$3 scenario=$4; shift 4
  local before=() after=() m out
  for m in 0 1 2; do before[$m]=$([ -n "${PIDS[$m]}" ] && ticks "${PIDS[$m]}" || echo 0); done
  out=$("${LOADTEST[@]}" "$scenario" --url "$(url "$n")" --queue-name "$q" --users "$USERS" "$@" 2>&1 | tail -1)
  for m in 0 1 2; do after[$m]=$([ -n "${PIDS[$m]}" ] && ticks "${PIDS[$m]}" || echo 0); done
  local rps ops
  rps=$(echo "$out" | grep -oE '[0-9]+ req/s' | cut -d' ' -f1)
  ops=$(( rps * $(echo " $* " | grep -oE -- '--duration [0-9]+' | cut -d' ' -f2) ))
  local cpu="" total=0
  for m in 0 1 2; do
    local us=$(( (after[m] - before[m]) * 1000000 / HZ / (ops > 0 ? ops : 1) ))
    total=$((total + us)); cpu+=" node$m ${us}us"
  done
  say "$label | $out | CPU per request: all ${total}us ($cpu )"
}

phase_hop() {
  start_nodes 0 1 2
  local q owner via
  q=$(queue_on 0 hop-); owner=0; via=1
  say "== hop: queue $q held by node$owner; forwarded through node$via; $(date -u +%FT%TZ), $(git rev-parse --short HEAD)"
  for scenario in send loop; do # warm-up of both paths, not recorded
    "${LOADTEST[@]}" "$scenario" --url "$(url $owner)" --queue-name "$q" --warmup 0 --duration 15 >/dev/null 2>&1
    "${LOADTEST[@]}" "$scenario" --url "$(url $via)" --queue-name "$q" --warmup 0 --duration 15 >/dev/null 2>&1
  done
  for r in $(seq 1 "$ROUNDS"); do
    for scenario in send loop; do
      measured_run "round $r $scenario closed owner    " $owner "$q" "$scenario" --warmup 0 --duration "$SECONDS_PER_RUN"
      measured_run "round $r $scenario closed forwarded" $via "$q" "$scenario" --warmup 0 --duration "$SECONDS_PER_RUN"
      local rate; rate=$([ $scenario = send ] && echo "$RATE" || echo "$LOOP_RATE")
      measured_run "round $r $scenario rate $rate owner    " $owner "$q" "$scenario" --warmup 0 --duration "$SECONDS_PER_RUN" --rate "$rate"
      measured_run "round $r $scenario rate $rate forwarded" $via "$q" "$scenario" --warmup 0 --duration "$SECONDS_PER_RUN" --rate "$rate"
    done
  done
  stop_all
}

# three clients at once, client i through node entry[i] on queue qs[i]; prints their sum
three_clients() { # label entry0 entry1 entry2
  local label=$1; shift
  local entries=("$@") i pids=() total=0 before after
  before=$(ticks $(for p in "${PIDS[@]}"; do [ -n "$p" ] && echo "$p"; done))
  for i in 0 1 2; do
    "${LOADTEST[@]}" loop --url "$(url "${entries[$i]}")" --queue-name "${QS[$i]}" --users $((USERS / 3)) \
      --warmup 10 --duration "$SECONDS_PER_RUN" >"$OUTDIR/scale-$i.out" 2>&1 &
    pids+=($!)
  done
  for i in 0 1 2; do wait "${pids[$i]}"; done
  after=$(ticks $(for p in "${PIDS[@]}"; do [ -n "$p" ] && echo "$p"; done))
  local lines=""
  for i in 0 1 2; do
    local line; line=$(tail -1 "$OUTDIR/scale-$i.out")
    total=$((total + $(echo "$line" | grep -oE '[0-9]+ msgs/s' | cut -d' ' -f1)))
    lines+=" [$(echo "$line" | grep -oE '[0-9]+ msgs/s, errors [0-9]+; latency p50 [0-9.]+ ms, p90 [0-9.]+ ms, p99 [0-9.]+ ms')]"
  done
  say "$label: $total msgs/s in all; server CPU $(( (after - before) * 100 / HZ / (SECONDS_PER_RUN + 10) ))% of one core;$lines"
}

phase_scale() {
  say "== scale: three queues, three clients; $(date -u +%FT%TZ), $(git rev-parse --short HEAD)"
  for r in $(seq 1 "$ROUNDS"); do
    start_nodes 0
    QS=("scale-$r-a" "scale-$r-b" "scale-$r-c")
    three_clients "round $r, 1 node: all three clients through node0" 0 0 0
    stop_all
    # a node's share of the shards depends on the ids the nodes took at this start
    start_nodes 0 1 2
    QS=("$(queue_on 0 "scale-$r-d-")" "$(queue_on 1 "scale-$r-e-")" "$(queue_on 2 "scale-$r-f-")")
    three_clients "round $r, 3 nodes: client i through node i, which holds its queue" 0 1 2
    three_clients "round $r, 3 nodes: client i through node i+1, which forwards to node i" 1 2 0
    stop_all
  done
}

# the first round starting at or after T that served, from an availability CSV: "served_after_ms rounds_failed"
first_served_after() { # csv T
  awk -F, -v t="$2" 'NR > 1 && $1 >= t { if ($3 == 1) { print $2 - t, failed + 0; exit } failed++ }' "$1"
}

phase_failover() {
  start_nodes 0 1 2
  local q; q=$(queue_on 0 failover-)
  say "== failover: queue $q, $KILLS kills of the node holding it, probed through another node; $(date -u +%FT%TZ), $(git rev-parse --short HEAD)"
  local k times=()
  for k in $(seq 1 "$KILLS"); do
    local owner via csv t result
    owner=$(owner_of_shard "$(shard_of "$q")")
    via=$(( (owner + 1) % 3 )); csv="$OUTDIR/failover-$k.csv"
    "${LOADTEST[@]}" availability --url "$(url $via)" --queue "$q" --duration 14 --csv "$csv" >/dev/null 2>&1 &
    local probe=$!
    sleep 3
    t=$(now_ms)
    kill -KILL "${PIDS[$owner]}"; wait "${PIDS[$owner]}" 2>/dev/null || true; PIDS[$owner]=""
    wait $probe
    result=$(first_served_after "$csv" "$t")
    [ -n "$result" ] || { say "kill $k: node$owner killed, the queue did not serve again within the probe's 11 s"; exit 1; }
    times+=("${result%% *}")
    say "kill $k: node$owner killed (SIGKILL), probed through node$via: served again after ${result%% *} ms (${result##* } failed rounds)"
    start_nodes "$owner"
  done
  local sorted; sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  say "failover over $KILLS kills: min ${sorted[0]} ms, median $(( (sorted[(KILLS - 1) / 2] + sorted[KILLS / 2]) / 2 )) ms, max ${sorted[KILLS - 1]} ms"
  stop_all
}

phase_handover() {
  start_nodes 0 1 2
  local q shard; q=$(queue_on 0 handover-)
  shard=$(shard_of "$q")
  say "== handover: queue $q (shard $shard) filled with $HANDOVER_MESSAGES messages of 1 KB; $(date -u +%FT%TZ), $(git rev-parse --short HEAD)"
  "${LOADTEST[@]}" fill --url "$(url 0)" --queue "$q" --messages "$HANDOVER_MESSAGES" --body-bytes 1024 --users 32 \
    --csv "$OUTDIR/handover-fill.csv" | tail -1 | tee -a "$SUMMARY"
  local h
  for h in $(seq 1 "$HANDOVERS"); do
    local owner via csv t stopped peer
    owner=$(owner_of_shard "$shard"); via=$(( (owner + 1) % 3 )); peer=$(( (owner + 2) % 3 ))
    csv="$OUTDIR/handover-$h.csv"
    # the peers' log lines from now on: which of them takes the shard, and how long its load took
    local via_log="$OUTDIR/node$via-${STARTS[$via]}.log" peer_log="$OUTDIR/node$peer-${STARTS[$peer]}.log"
    local via_from peer_from
    via_from=$(( $(wc -l <"$via_log") + 1 )); peer_from=$(( $(wc -l <"$peer_log") + 1 ))
    "${LOADTEST[@]}" availability --url "$(url $via)" --queue "$q" --duration 40 --csv "$csv" >/dev/null 2>&1 &
    local probe=$!
    sleep 3
    t=$(now_ms)
    stop_node "$owner" TERM
    stopped=$(( $(now_ms) - t ))
    local log_before="$OUTDIR/node$owner-${STARTS[$owner]}.log"
    local rejoin; rejoin=$(( $(now_ms) - t ))
    start_nodes "$owner"
    local balanced=$(( $(now_ms) - t ))
    wait $probe
    local log_after="$OUTDIR/node$owner-${STARTS[$owner]}.log"
    # rounds slower than 200 ms or failed, by when they started after the SIGTERM
    local gaps
    gaps=$(awk -F, -v t="$t" 'NR > 1 && $1 >= t - 1000 && ($3 == 0 || $2 - $1 > 200) {
      printf "%s%d..%d ms%s", sep, $1 - t, $2 - t, ($3 == 0 ? " failed" : ""); sep = ", " }' "$csv")
    local away back
    away=$(grep -oE "Handed over shard $shard in [0-9]+ ms" "$log_before" | tail -1 | grep -oE '[0-9]+ ms' || echo "?")
    back=$(grep -oE "Serving shard $shard: .* loaded in [0-9]+ ms" "$log_after" | tail -1 || echo "?")
    local taken
    taken=$( (tail -n +"$via_from" "$via_log" | sed "s/^/node$via /"; tail -n +"$peer_from" "$peer_log" | sed "s/^/node$peer /") \
      | grep -oE "^node[0-9] .*Serving shard $shard: .* loaded in [0-9]+ ms" | sed -E 's/ [0-9T:.-]+ INFO [a-zA-Z.]+ - / /' | head -1)
    say "hand-over $h: node$owner stopped (SIGTERM) in $stopped ms, handing shard $shard over in $away; taken by ${taken:-?};" \
      "node$owner started again at +$rejoin ms, balanced at +$balanced ms, took it back: $back;" \
      "probe rounds slower than 200 ms or failed (ms after the SIGTERM): ${gaps:-none}; $(grep -c ',1$' "$csv") served"
  done
  say "queue depth after: $(curl -s -X POST "$(url 0)/" -H 'X-Amz-Target: AmazonSQS.GetQueueAttributes' \
    -H 'Content-Type: application/x-amz-json-1.0' \
    -d "{\"QueueUrl\":\"$(url 0)/000000000000/$q\",\"AttributeNames\":[\"ApproximateNumberOfMessages\"]}")"
  stop_all
}

say "cluster-bench $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD); $(nproc) cores; $(java -version 2>&1 | head -1);" \
  "nodes: java ${NODE_OPTS:-} -jar target/sluice.jar, $SHARDS shards; PostgreSQL on $PGPORT"
for phase in "${PHASES[@]}"; do "phase_$phase"; done
say "node logs: $(cat "$OUTDIR"/node*.log | grep -cE 'ERROR|SEVERE|blocked') errors, $(cat "$OUTDIR"/node*.log | grep -c WARN) warnings"
