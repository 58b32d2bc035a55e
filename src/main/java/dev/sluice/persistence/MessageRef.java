package dev.sluice.persistence;

/** A message row's key: its queue's id and its key in the queue. */
record MessageRef(long queueId, long messageKey) {}
