/**
 * The pure queue model: standard and FIFO queues, their messages' states and delivery order,
 * receipt handles, deduplication, dead letters, move tasks, parked receives and the due-time index;
 * and message contents packed ({@link dev.sluice.model.PackedContent}) into a shard's
 * {@link dev.sluice.model.ContentSlab}, not yet used by the queues.
 * No Vert.x and no clock: every operation is given the time, so it is tested with a manual clock.
 * Everything here is owned by the shard event loop that owns the queue. Imports {@code api}, and
 * {@code access} to validate and read queue policies.
 */
package dev.sluice.model;
