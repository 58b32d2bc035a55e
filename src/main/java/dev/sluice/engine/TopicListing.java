package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.topics.ListTopics;
import dev.sluice.api.topics.SnsException;
import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * ListTopics (its page in the SNS API reference): the topics of the caller's account and region,
 * sorted by ARN, 100 a page. Every shard is asked for its ARNs; the NextToken is the last ARN
 * returned, base64url-encoded, so that a page is "the ARNs after this one" and stays valid while
 * topics come and go.
 */
final class TopicListing {
  static final int PAGE_SIZE = 100;

  private final ShardDispatcher dispatcher;

  TopicListing(ShardDispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  Future<ListTopics.Response> list(AccountRegion place, String nextToken) {
    String after = nextToken == null || nextToken.isEmpty() ? null : decode(nextToken);
    return dispatcher.onEveryShard(s -> s.topics().arns(place)).map(perShard -> {
      List<String> sorted = new ArrayList<>();
      perShard.forEach(sorted::addAll);
      sorted.sort(null);
      if (after != null) {
        sorted.removeIf(arn -> arn.compareTo(after) <= 0);
      }
      List<String> page = List.copyOf(sorted.subList(0, Math.min(PAGE_SIZE, sorted.size())));
      String next = sorted.size() > PAGE_SIZE ? encode(page.get(page.size() - 1)) : null;
      return new ListTopics.Response(page, next);
    });
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
