package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.Limits;
import dev.sluice.api.ListQueues;
import dev.sluice.api.SqsException;
import dev.sluice.model.QueueRegistry;
import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * ListQueues (its page in the AWS API reference): the queues of the caller's account in the
 * caller's region. Asks every shard for its matching names, then sorts and pages them. The
 * NextToken is the last name returned, encoded; it stays valid while queues come and go.
 */
public final class QueueListing {
  private final ShardDispatcher dispatcher;

  private final QueueAccess access;

  QueueListing(ShardDispatcher dispatcher, QueueAccess access) {
    this.dispatcher = dispatcher;
    this.access = access;
  }

  public Future<ListQueues.Response> listQueues(Caller c, ListQueues.Request r) {
    Integer max = r.maxResults();
    checkMaxResults(max);
    String baseUrl = c.baseUrl();
    AccountRegion place = c.accountRegion();
    access.permit(c, "ListQueues").checkAll(place);
    return dispatcher.onEveryShard(s -> {
      QueueRegistry queues = s.registryIfAny(place);
      return queues == null ? List.<String>of() : queues.names(r.queueNamePrefix());
    }).map(perShard -> {
      List<String> names = perShard.stream().flatMap(List::stream).toList();
      Page page = page(names, r.nextToken(), max);
      return new ListQueues.Response(
          page.names().stream().map(n -> QueueUrls.urlOf(baseUrl, place.queue(n))).toList(), page.nextToken());
    });
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
    return Base64.getUrlEncoder().withoutPadding().encodeToString(lastName.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The queue name a token resumes after. Anything else is refused rather than read as some
   * position: a token that is not base64url, whose bytes are not UTF-8, or whose text could not
   * name a queue was not made by {@link #encodeToken}.
   */
  static String decodeToken(String token) {
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(token);
      String name = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
      if (QueueRegistry.isValidName(name)) {
        return name;
      }
    } catch (IllegalArgumentException | CharacterCodingException garbage) {
      // refused below
    }
    throw SqsException.invalidParameter("Invalid NextToken value.");
  }
}
