package dev.sluice.engine;

import dev.sluice.api.topics.SnsException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The pages of SNS's listings (ListTopics, ListSubscriptions, ListSubscriptionsByTopic): 100 items
 * a page, sorted by ARN; the NextToken is the last ARN returned, base64url-encoded, so that a page is
 * "the items after this one" and stays valid while topics and subscriptions come and go. Stateless.
 */
final class ArnPages {
  static final int PAGE_SIZE = 100;

  private ArnPages() {}

  /** One page of items and the token of the next, or null when this is the last. */
  record Page<T>(List<T> items, String nextToken) {}

  static <T> Page<T> page(List<T> items, Function<T, String> arnOf, String nextToken) {
    String after = nextToken == null || nextToken.isEmpty() ? null : decode(nextToken);
    List<T> sorted = new ArrayList<>(items);
    sorted.sort(Comparator.comparing(arnOf));
    if (after != null) {
      sorted.removeIf(item -> arnOf.apply(item).compareTo(after) <= 0);
    }
    List<T> page = List.copyOf(sorted.subList(0, Math.min(PAGE_SIZE, sorted.size())));
    String next = sorted.size() > PAGE_SIZE ? PageTokens.encode(arnOf.apply(page.get(page.size() - 1))) : null;
    return new Page<>(page, next);
  }

  /** The ARN a token resumes after; anything {@link PageTokens#encode} did not make of an SNS ARN is refused. */
  static String decode(String token) {
    String arn = PageTokens.decode(token, a -> a.startsWith("arn:aws:sns:") && a.length() <= 400);
    if (arn == null) {
      throw SnsException.invalidParameter("NextToken");
    }
    return arn;
  }
}
