#!/usr/bin/env bash
# Every benchmark of loadtest/RESULTS.md, in order, each against a fresh server JVM on 127.0.0.1.
# Comparisons (backlog, dispatch) alternate their two sides so that the machine's drift over
# time does not masquerade as a difference. About 25 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -q -DskipTests package
mvn -q install:install-file@sluice-client # the Java client, which the loadtest build depends on
mvn -q -f loadtest/pom.xml package
LT="java -jar loadtest/target/sluice-loadtest.jar"
S=loadtest/scripts/with-server.sh
echo "date: $(date -u +%FT%TZ); commit: $(git rev-parse --short HEAD); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(java -version 2>&1 | head -1)"
for i in 1 2 3; do loadtest/scripts/wrk-bench.sh send 20 20; done
for i in 1 2 3; do loadtest/scripts/wrk-bench.sh send-batch 20 20; done
for i in 1 2; do
  $S $LT loop --users 64 --warmup 15 --duration 20
  $S $LT loop --users 64 --warmup 15 --duration 20 --prefill 1000000
done
for i in 1 2; do
  $S $LT loop --users 64 --warmup 15 --duration 20
  $S $LT loop --users 64 --warmup 15 --duration 20 --groups 100
  $S $LT loop --users 64 --warmup 15 --duration 20 --groups 1
done
for i in 1 2; do $S $LT move --messages 200000; done
for i in 1 2; do $S $LT wake --consumers 100 --warmup 20 --duration 30; done
$S $LT parked --parked 10000 --server-pid '$SERVER_PID' --settle 12
for i in 1 2; do
  SLUICE_ENGINE_DISPATCH=direct $S $LT loop --users 64 --warmup 15 --duration 20
  SLUICE_ENGINE_DISPATCH=eventbus $S $LT loop --users 64 --warmup 15 --duration 20
done
SLUICE_ENGINE_DISPATCH=direct $S $LT wake --consumers 100 --warmup 20 --duration 30
SLUICE_ENGINE_DISPATCH=eventbus $S $LT wake --consumers 100 --warmup 20 --duration 30
SLUICE_ENGINE_DISPATCH=direct loadtest/scripts/wrk-bench.sh send 20 20
SLUICE_ENGINE_DISPATCH=eventbus loadtest/scripts/wrk-bench.sh send 20 20
