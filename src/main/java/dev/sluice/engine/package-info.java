/**
 * The queues at work: shard verticles on event loops, each the only owner of its queues; routing a
 * call to the shard that owns its queue (directly or over the event bus), the facade every client
 * of the queues calls ({@link dev.sluice.engine.QueueEngine}), the serving gate of durable mode,
 * recovery and the change log that hands a shard's changes to the writer. Imports {@code api},
 * {@code model} and {@code persistence}.
 */
package dev.sluice.engine;
