package dev.sluice.engine;

import dev.sluice.api.topics.SnsException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
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
    String next = sorted.size() > PAGE_SIZE ? encode(arnOf.apply(page.get(page.size() - 1))) : null;
    return new Page<>(page, next);
  }

  static String encode(String lastArn) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(lastArn.getBytes(StandardCharsets.UTF_8));
  }

  /** The ARN a token resumes after; anything {@link #encode} did not make is refused, not read as some place. */
  static String decode(String token) {
    try {
      String arn = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(Base64.getUrlDecoder().decode(token)))
          .toString();
      if (arn.startsWith("arn:aws:sns:") && arn.length() <= 400) {
        return arn;
      }
    } catch (IllegalArgumentException | CharacterCodingException garbage) {
      // refused below
    }
    throw SnsException.invalidParameter("NextToken");
  }
}
