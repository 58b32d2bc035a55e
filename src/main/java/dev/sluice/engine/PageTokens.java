package dev.sluice.engine;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Predicate;

/**
 * The NextToken of Sluice's listings: the last name or ARN a page returned, base64url-encoded, so
 * that a page is "what comes after this one" and a token stays valid while things come and go.
 * Stateless.
 */
final class PageTokens {
  private PageTokens() {}

  static String encode(String last) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(last.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * What a token resumes after, or null when it is not one {@link #encode} made of something
   * {@code valid} accepts (not base64url, not UTF-8, or naming nothing a listing could have
   * returned): the caller refuses it rather than read it as some position.
   */
  static String decode(String token, Predicate<String> valid) {
    try {
      String last = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(Base64.getUrlDecoder().decode(token)))
          .toString();
      return valid.test(last) ? last : null;
    } catch (IllegalArgumentException | CharacterCodingException garbage) {
      return null;
    }
  }
}
