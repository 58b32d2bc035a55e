/**
 * Queue triggers (Lambda-style event source mappings, design/triggers.md), their pure model: the
 * settings and their bounds, the SQS event a target is posted, and how its answer settles a batch.
 * No Vert.x, no clock.
 */
package dev.sluice.triggers;
