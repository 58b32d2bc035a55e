package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.Limits;
import dev.sluice.api.ListQueues;
import dev.sluice.api.SqsException;
import dev.sluice.model.QueueRegistry;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * ListQueues (its page in the AWS API reference): the queues of the caller's account in the
 * caller's region. Asks every shard for its matching names, then sorts and pages them; in cluster
 * mode, the shards this node serves itself and, through {@link RemoteShards}, the others, each
 * shard answering once. The NextToken is the last name returned, encoded; it stays valid while
 * queues come and go.
 */
public final class QueueListing {
  private final ShardDispatcher dispatcher;

  private final QueueAccess access;
  private final ShardSlots slots;
  private final Supplier<RemoteShards> remote;

  QueueListing(ShardDispatcher dispatcher, QueueAccess access, ShardSlots slots, Supplier<RemoteShards> remote) {
    this.dispatcher = dispatcher;
    this.access = access;
    this.slots = slots;
    this.remote = remote;
  }

  public Future<ListQueues.Response> listQueues(Caller c, ListQueues.Request r) {
    Integer max = r.maxResults();
    checkMaxResults(max);
    String baseUrl = c.baseUrl();
    AccountRegion place = c.accountRegion();
    access.permit(c, "ListQueues").checkAll(place);
    return names(place, r.queueNamePrefix(), null).map(names -> {
      Page page = page(names, r.nextToken(), max);
      return new ListQueues.Response(
          page.names().stream().map(n -> QueueUrls.urlOf(baseUrl, place.queue(n))).toList(), page.nextToken());
    });
  }

  /** Names, unsorted, of every queue of {@code place} whose RedrivePolicy targets {@code deadLetterArn}. */
  Future<List<String>> deadLetterSources(AccountRegion place, String deadLetterArn) {
    return names(place, null, deadLetterArn);
  }

  /**
   * The names of the queues of {@code place} starting with {@code prefix} (or, given a
   * {@code deadLetterArn}, naming it as their dead-letter queue), of every shard: here, and from the
   * other nodes for the shards they serve.
   */
  private Future<List<String>> names(AccountRegion place, String prefix, String deadLetterArn) {
    RemoteShards others = remote.get();
    if (others == RemoteShards.NONE) {
      return dispatcher.onEveryShard(s -> namesOf(s, place, prefix, deadLetterArn))
          .map(perShard -> perShard.stream().flatMap(List::stream).toList());
    }
    Set<Integer> all = new TreeSet<>();
    for (int i = 0; i < slots.size(); i++) {
      all.add(i);
    }
    return namesHere(place, prefix, deadLetterArn, all).compose(here -> {
      Set<Integer> elsewhere = new TreeSet<>(all);
      List<String> names = new ArrayList<>();
      for (QueueNames.ShardNames s : here.shards()) {
        elsewhere.remove(s.shard());
        names.addAll(s.names());
      }
      return others.queueNames(place, prefix, deadLetterArn, elsewhere).map(there -> {
        names.addAll(there);
        return names;
      });
    });
  }

  /**
   * The matching names of those of {@code shards} that serve client calls here, and which those are
   * (a shard that stops serving while it is asked is left to the others).
   */
  Future<QueueNames> namesHere(AccountRegion place, String prefix, String deadLetterArn, Set<Integer> shards) {
    List<Integer> asked = new ArrayList<>();
    List<Future<List<String>>> parts = new ArrayList<>();
    for (int shard : shards) {
      if (shard >= 0 && shard < slots.size() && slots.closedBecause(shard) == null) {
        asked.add(shard);
        parts.add(dispatcher.call(shard, (s, reply) -> reply.succeed(namesOf(s, place, prefix, deadLetterArn))));
      }
    }
    return Future.join(parts).transform(done -> {
      List<QueueNames.ShardNames> answered = new ArrayList<>();
      for (int i = 0; i < parts.size(); i++) {
        if (parts.get(i).succeeded()) {
          answered.add(new QueueNames.ShardNames(asked.get(i), parts.get(i).result()));
        }
      }
      return Future.succeededFuture(new QueueNames(answered));
    });
  }

  private static List<String> namesOf(Shard s, AccountRegion place, String prefix, String deadLetterArn) {
    QueueRegistry queues = s.registryIfAny(place);
    return queues == null ? List.of()
        : deadLetterArn != null ? queues.deadLetterSourcesOf(deadLetterArn) : queues.names(prefix);
  }

  /** MaxResults of a listing: 1 to 1000 when given. */
  static void checkMaxResults(Integer max) {
    if (max != null && (max < 1 || max > Limits.LIST_QUEUES_MAX_RESULTS)) {
      throw SqsException.invalidValue(max, "MaxResults", "MaxResults must be an integer between 1 and 1000.");
    }
  }

  /** One page of a listing of queue names. */
  record Page(List<String> names, String nextToken) {}

  /**
   * Sorts the names and returns the page after {@code nextToken}. Without MaxResults: up to 1000
   * and never a NextToken (AWS API reference: ListQueues).
   */
  static Page page(List<String> names, String nextToken, Integer max) {
    String after = nextToken == null || nextToken.isEmpty() ? null : decodeToken(nextToken);
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(null);
    if (after != null) {
      sorted.removeIf(n -> n.compareTo(after) <= 0);
    }
    int limit = max == null ? Limits.LIST_QUEUES_MAX_RESULTS : max;
    List<String> page = sorted.subList(0, Math.min(limit, sorted.size()));
    String next = max != null && sorted.size() > limit ? encodeToken(page.get(page.size() - 1)) : null;
    return new Page(List.copyOf(page), next);
  }

  static String encodeToken(String lastName) {
    return PageTokens.encode(lastName);
  }

  /**
   * The queue name a token resumes after. Anything else is refused rather than read as some
   * position: a token that is not base64url, whose bytes are not UTF-8, or whose text could not
   * name a queue was not made by {@link #encodeToken}.
   */
  static String decodeToken(String token) {
    String name = PageTokens.decode(token, QueueRegistry::isValidName);
    if (name == null) {
      throw SqsException.invalidParameter("Invalid NextToken value.");
    }
    return name;
  }
}
