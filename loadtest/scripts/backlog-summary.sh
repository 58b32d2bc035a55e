#!/usr/bin/env bash
# Renders the summary of a backlog-bench.sh run from what it left in OUTDIR: the passes' values
# (NAME-values.txt), the server's RSS (rss.csv) over each phase (phases.csv), and the main pass's
# rates against the baseline's (target: 70% or more). Can be run again on a finished OUTDIR.
# usage: loadtest/scripts/backlog-summary.sh OUTDIR [COMMAND]
set -euo pipefail
out=$1
cd "$(dirname "$0")/../.."
val() { [ -f "$out/$1-values.txt" ] && sed -n "s/^$2=//p" "$out/$1-values.txt" | tail -1; }
mb() { [ -n "$1" ] && awk -v b="$1" 'BEGIN {printf "%.1f", b / 1048576}'; }
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.0f%%", 100 * a / b}'; }
# RSS in MB over the phases whose name matches $1 (a regular expression): min, max, at the end.
rss() {
  awk -F, -v re="$1" 'NR == FNR { if (FNR > 1 && $1 ~ re) { s[++n] = $2; e[n] = $3 } next }
    FNR > 1 { for (i = 1; i <= n; i++) if ($1 >= s[i] && $1 <= e[i]) {
      mb = $2 / 1024; if (!seen++ || mb < lo) lo = mb; if (mb > hi) hi = mb; last = mb; break } }
    END { if (seen) printf "%.0f-%.0f (end %.0f)", lo, hi, last; else printf "no samples" }' \
    "$out/phases.csv" "$out/rss.csv"
}
# The median of a run's per-second rates above 0 (a drain's idle seconds at the end are not its
# pace): steadier than the whole run's rate when a short run is mostly warm-up.
median() {
  [ -f "$out/$1.csv" ] && tail -n +2 "$out/$1.csv" | cut -d, -f2 | awk '$1 > 0' | sort -n |
    awk '{ v[NR] = $1 } END { if (NR) printf "%.0f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
row() { printf '%-44s %20s %20s %12s\n' "$@"; }

echo "Backlog beyond memory (issue 16): $(date +%F), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem/ {print $2}') GB, $(java -version 2>&1 | head -1)," \
  "$("$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/postgres" --version 2>/dev/null || echo PostgreSQL ?)"
echo "server: java ${SERVER_HEAP:--Xmx512m} -jar target/sluice.jar, storage postgres;" \
  "PG_SETTINGS=${PG_SETTINGS:-"-c shared_buffers=1GB -c max_wal_size=8GB"}"
[ -n "${2:-}" ] && echo "command: $2"
echo
row "" "main" "baseline" "main/base"
row "messages" "$(val main messages)" "$(val baseline messages)" ""
row "fill msgs/s (target main/base >= 70%)" "$(val main fill_msgs_per_s)" "$(val baseline fill_msgs_per_s)" \
  "$(ratio "$(val main fill_msgs_per_s)" "$(val baseline fill_msgs_per_s)")"
row "drain msgs/s (target main/base >= 70%)" "$(val main drain_msgs_per_s)" "$(val baseline drain_msgs_per_s)" \
  "$(ratio "$(val main drain_msgs_per_s)" "$(val baseline drain_msgs_per_s)")"
row "  median of per-second fill rates" "$(median main-fill)" "$(median baseline-fill)" \
  "$(ratio "$(median main-fill)" "$(median baseline-fill)")"
row "  median of per-second drain rates" "$(median main-drain)" "$(median baseline-drain)" \
  "$(ratio "$(median main-drain)" "$(median baseline-drain)")"
row "fill / drain seconds" "$(val main fill_seconds) / $(val main drain_seconds)" \
  "$(val baseline fill_seconds) / $(val baseline drain_seconds)" ""
for p in main baseline; do
  retries[$([ $p = main ] && echo 0 || echo 1)]="$(val $p fill_throttled_retries)/$(val $p fill_unavailable_retries)/$(val $p fill_entries_resent)"
done
row "fill retries throttled/503/entries" "${retries[0]}" "${retries[1]}" ""
row "drain received / duplicates" "$(val main drain_received) / $(val main drain_duplicates)" \
  "$(val baseline drain_received) / $(val baseline drain_duplicates)" ""
row "ready after restart, ms (target <= 5000)" "$(val main ready_ms)" "$(val baseline ready_ms)" ""
row "ready at first start (empty), ms" "$(val main ready_ms_empty)" "$(val baseline ready_ms_empty)" ""
row "visible after restart" "$(val main visible_after_restart)" "$(val baseline visible_after_restart)" ""
row "clean stop after fill, ms (exit code)" "$(val main stop_ms_after_fill) ($(val main stop_code_after_fill))" \
  "$(val baseline stop_ms_after_fill) ($(val baseline stop_code_after_fill))" ""
row "sluice_messages after fill: table MB" "$(mb "$(val main table_bytes_after_fill)")" \
  "$(mb "$(val baseline table_bytes_after_fill)")" ""
row "  indexes MB" "$(mb "$(val main index_bytes_after_fill)")" "$(mb "$(val baseline index_bytes_after_fill)")" ""
row "  live rows" "$(val main live_rows_after_fill)" "$(val baseline live_rows_after_fill)" ""
row "after drain: table / indexes MB" \
  "$(mb "$(val main table_bytes_after_drain)") / $(mb "$(val main index_bytes_after_drain)")" \
  "$(mb "$(val baseline table_bytes_after_drain)") / $(mb "$(val baseline index_bytes_after_drain)")" ""
row "fill: transactions committed" "$(val main fill_transactions)" "$(val baseline fill_transactions)" ""
row "fill: rows inserted per transaction" "$(val main fill_rows_per_transaction)" \
  "$(val baseline fill_rows_per_transaction)" ""
row "server RSS MB, fill: min-max (end)" "$(rss '^main-fill$')" "$(rss '^baseline-fill$')" ""
row "server RSS MB, restart + drain" "$(rss '^main-(restart|drain)$')" "$(rss '^baseline-(restart|drain)$')" ""
row "server RSS MB, whole pass" "$(rss '^main-')" "$(rss '^baseline-')" ""
row "server log: SEVERE/ERROR/OOM/mismatch lines" "$(val main server_log_problems)" \
  "$(val baseline server_log_problems)" ""
row "server log: WARNING lines" "$(val main server_log_warnings)" "$(val baseline server_log_warnings)" ""
echo
echo "Transactions include the server's lease heartbeat (one every pg.leaseMillis/4) and a few of the"
echo "script's queries. Rates: fill = messages / fill time; drain = deleted / time to the last deletion."
