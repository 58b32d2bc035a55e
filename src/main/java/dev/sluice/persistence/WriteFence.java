package dev.sluice.persistence;

import java.util.function.LongConsumer;

/**
 * What every write carries so that PostgreSQL can refuse it once another server has claimed the
 * database (see {@link DatabaseOwnership}). Immutable.
 *
 * @param epoch this server's fencing token
 * @param idleLimitMillis how long a write transaction may idle between two statements before
 *     PostgreSQL ends it (a paused process must not hold up another server's claim for ever)
 * @param refused told the epoch a write was attempted with, when PostgreSQL refused it
 */
public record WriteFence(long epoch, long idleLimitMillis, LongConsumer refused) {}
