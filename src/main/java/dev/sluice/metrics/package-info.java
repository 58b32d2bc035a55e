/**
 * Micrometer wiring: the Prometheus registry, every metric's name in one place, per-queue gauges
 * sampled from the shards and the writer's meters. Sits above what it measures: imports
 * {@code api}, {@code model}, {@code engine} and {@code persistence}, and none of them imports it
 * back.
 */
package dev.sluice.metrics;
