package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.topics.ListTopics;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * ListTopics (its page in the SNS API reference) and ListSubscriptions: what every shard holds of
 * the caller's account and region, gathered and paged by ARN ({@link ArnPages}).
 */
final class TopicListing {
  private final ShardDispatcher dispatcher;

  TopicListing(ShardDispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  Future<ListTopics.Response> list(AccountRegion place, String nextToken) {
    return gather(s -> s.topics().arns(place)).map(arns -> {
      ArnPages.Page<String> page = ArnPages.page(arns, arn -> arn, nextToken);
      return new ListTopics.Response(page.items(), page.nextToken());
    });
  }

  /** What {@code fn} finds on every shard, in one list. */
  <T> Future<List<T>> gather(Function<Shard, List<T>> fn) {
    return dispatcher.onEveryShard(fn).map(perShard -> {
      List<T> all = new ArrayList<>();
      perShard.forEach(all::addAll);
      return all;
    });
  }
}
