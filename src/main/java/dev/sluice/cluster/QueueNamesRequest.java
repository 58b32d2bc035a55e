package dev.sluice.cluster;

import dev.sluice.api.AccountRegion;
import java.util.List;

/**
 * A listing's question to another node: the names starting with {@code prefix} of the queues of
 * {@code place} (or, given a {@code deadLetterArn}, of those naming it as their dead-letter queue)
 * on those of {@code shards} it serves (answered with an engine {@code QueueNames}).
 */
public record QueueNamesRequest(AccountRegion place, String prefix, String deadLetterArn, List<Integer> shards) {}
