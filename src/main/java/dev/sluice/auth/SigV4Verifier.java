package dev.sluice.auth;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks AWS Signature Version 4 on a request, in the Authorization header or in presigned query
 * parameters, against the configured credentials, and names the access key that signed it. A
 * signature is scoped to SQS or to SNS ({@link #SERVICES}), and says which API the request is for. A
 * failure is the SQS error AWS gives: unknown key InvalidClientTokenId, wrong signature or a date
 * more than 15 minutes off SignatureDoesNotMatch, nothing at all MissingAuthenticationToken. The
 * signature is compared in constant time; secrets never appear in a message. Thread-safe.
 */
public final class SigV4Verifier {
  /** How far a request's date may be from the server's clock, as AWS allows. */
  static final long MAX_SKEW_MILLIS = 15 * 60 * 1000;
  /** The services a request may be signed for: both APIs are served on one port. */
  public static final Set<String> SERVICES = Set.of("sqs", "sns");
  static final int MAX_CACHED_KEYS = 1024;
  /** The longest a presigned URL may be valid, as AWS allows: seven days. */
  static final long MAX_EXPIRES_SECONDS = 7 * 24 * 3600;
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Map<String, String> secrets;
  /** Signing keys by key id, date, region and service: derived once a day per caller, not per request. */
  private final Map<String, byte[]> signingKeys = new ConcurrentHashMap<>();

  public SigV4Verifier(Map<String, String> secretsByKeyId) {
    this.secrets = Map.copyOf(secretsByKeyId);
  }

  /** The access key id that signed {@code r}; throws the SQS error otherwise. */
  public String verify(SignedRequest r, long nowMillis) {
    return precheck(r, nowMillis).verify(r);
  }

  /**
   * Everything that can be checked before the body is read: a signature is there and well formed,
   * its key is known, its date is current and it signs what it must. The body is then checked by
   * {@link Signature#verify}; a request that fails here is refused without reading its body.
   */
  public Signature precheck(SignedRequest r, long nowMillis) {
    Map<String, String> query = r.rawQuery() == null || !r.rawQuery().contains("X-Amz-")
        ? Map.of() : SigV4.queryParameters(r.rawQuery());
    String authorization = first(r.headers("authorization"));
    Parts p;
    if (authorization != null) {
      p = fromHeader(authorization, r);
    } else if (query.containsKey("X-Amz-Signature") || query.containsKey("X-Amz-Credential")) {
      p = fromQuery(query);
    } else {
      throw new SqsException(ErrorCode.MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
    }
    CredentialScope scope = CredentialScope.parse(p.credential);
    if (scope == null) {
      throw incomplete("Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term,"
          + " got '" + p.credential + "'");
    }
    String keyId = scope.accessKeyId();
    String secret = secrets.get(keyId);
    if (secret == null) {
      throw new SqsException(ErrorCode.INVALID_CLIENT_TOKEN_ID, "The security token included in the request is invalid.");
    }
    long signedAt = checkDate(p.amzDate, nowMillis, p.presigned);
    if (!p.amzDate.startsWith(scope.date())) {
      throw mismatch("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '"
          + scope.date() + "' != '" + p.amzDate.substring(0, 8) + "', from '" + p.amzDate + "'.");
    }
    if (!SERVICES.contains(scope.service())) {
      throw mismatch("Credential should be scoped to correct service: 'sqs'.");
    }
    if (!p.signedHeaders.contains("host")) {
      throw mismatch("'Host' must be a 'SignedHeader' in the AWS Authorization.");
    }
    // The action of the AWS JSON protocol travels in this header: unsigned, a captured signature
    // could be replayed with another action (a ListQueues signature turned into a PurgeQueue).
    if (!r.headers("x-amz-target").isEmpty() && !p.signedHeaders.contains("x-amz-target")) {
      throw mismatch("'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization.");
    }
    if (p.presigned && nowMillis > signedAt + p.expiresSeconds * 1000L) {
      throw mismatch("Signature expired: " + p.amzDate + " is now earlier than "
          + AMZ_DATE.format(Instant.ofEpochMilli(nowMillis - p.expiresSeconds * 1000L)) + ".");
    }
    String scopeText = scope.date() + "/" + scope.region() + "/" + scope.service() + "/" + SigV4.TERMINATOR;
    if (signingKeys.size() > MAX_CACHED_KEYS) {
      signingKeys.clear(); // regions are the client's choice: keep the cache bounded
    }
    // The service is part of the key: one credential signs for SQS and SNS alike.
    String cacheKey = keyId + '/' + scope.date() + '/' + scope.region() + '/' + scope.service();
    byte[] key = signingKeys.computeIfAbsent(cacheKey,
        k -> SigV4.signingKey(secret, scope.date(), scope.region(), scope.service()));
    return new Signature(scope, key, scopeText, p);
  }

  /** A signature that passed {@link #precheck}; what is left needs the body. */
  public static final class Signature {
    private final CredentialScope credential;
    private final byte[] key;
    private final String scope;
    private final Parts parts;

    private Signature(CredentialScope credential, byte[] key, String scope, Parts parts) {
      this.credential = credential;
      this.key = key;
      this.scope = scope;
      this.parts = parts;
    }

    /** The key id, date, region and service the request is signed for. */
    public CredentialScope scope() {
      return credential;
    }

    /** The access key id that signed {@code r} (the request with its body); throws the SQS error otherwise. */
    public String verify(SignedRequest r) {
      String payloadHash = SigV4.hex(SigV4.sha256(r.body()));
      String expected = SigV4.signature(key, SigV4.stringToSign(parts.amzDate, scope,
          SigV4.canonicalRequest(r, parts.signedHeaders, payloadHash, parts.presigned ? "X-Amz-Signature" : null)));
      if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
          parts.signature.getBytes(StandardCharsets.US_ASCII))) {
        throw mismatch("The request signature we calculated does not match the signature you provided. Check your"
            + " AWS Secret Access Key and signing method. Consult the service documentation for details.");
      }
      return credential.accessKeyId();
    }
  }

  /** What a signature is made of, from wherever the request carries it. */
  private record Parts(String credential, List<String> signedHeaders, String signature, String amzDate,
      long expiresSeconds, boolean presigned) {}

  private static Parts fromHeader(String authorization, SignedRequest r) {
    if (!authorization.startsWith(SigV4.ALGORITHM + " ")) {
      throw incomplete("Authorization header requires the " + SigV4.ALGORITHM + " algorithm (Signature Version 4).");
    }
    String credential = null;
    String signedHeaders = null;
    String signature = null;
    for (String part : authorization.substring(SigV4.ALGORITHM.length() + 1).split(",")) {
      String kv = part.trim();
      if (kv.startsWith("Credential=")) {
        credential = kv.substring("Credential=".length());
      } else if (kv.startsWith("SignedHeaders=")) {
        signedHeaders = kv.substring("SignedHeaders=".length());
      } else if (kv.startsWith("Signature=")) {
        signature = kv.substring("Signature=".length());
      }
    }
    if (credential == null || signedHeaders == null || signature == null) {
      throw incomplete("Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.");
    }
    String amzDate = first(r.headers("x-amz-date"));
    if (amzDate == null) {
      String date = first(r.headers("date"));
      if (date == null) {
        throw incomplete("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
      }
      try {
        amzDate = AMZ_DATE.format(ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME));
      } catch (DateTimeParseException e) {
        throw incomplete("The Date header is not an RFC 1123 date: '" + date + "'.");
      }
    }
    return new Parts(credential, List.of(signedHeaders.split(";")), signature, amzDate, -1, false);
  }

  private static Parts fromQuery(Map<String, String> q) {
    for (String name : List.of("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-SignedHeaders",
        "X-Amz-Signature")) {
      if (!q.containsKey(name)) {
        throw incomplete("A presigned request requires the query parameter " + name + ".");
      }
    }
    if (!SigV4.ALGORITHM.equals(q.get("X-Amz-Algorithm"))) {
      throw incomplete("X-Amz-Algorithm must be " + SigV4.ALGORITHM + ".");
    }
    long expires;
    try {
      expires = q.containsKey("X-Amz-Expires") ? Long.parseLong(q.get("X-Amz-Expires")) : MAX_EXPIRES_SECONDS;
    } catch (NumberFormatException e) {
      throw incomplete("X-Amz-Expires must be a number of seconds.");
    }
    // AWS's range for presigned URLs: from one second to seven days.
    if (expires < 1) {
      throw incomplete("X-Amz-Expires must be non-negative and at least 1 second.");
    }
    if (expires > MAX_EXPIRES_SECONDS) {
      throw incomplete("X-Amz-Expires must be less than a week (in seconds) that is 604800.");
    }
    return new Parts(q.get("X-Amz-Credential"), List.of(q.get("X-Amz-SignedHeaders").split(";")),
        q.get("X-Amz-Signature"), q.get("X-Amz-Date"), expires, true);
  }

  /**
   * The signing time in epoch ms; SignatureDoesNotMatch when it is more than 15 minutes off (a
   * presigned request may be older: its X-Amz-Expires says how much).
   */
  private static long checkDate(String amzDate, long nowMillis, boolean presigned) {
    long at;
    try {
      at = Instant.from(AMZ_DATE.parse(amzDate)).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw incomplete("X-Amz-Date must be in the ISO 8601 basic format yyyyMMdd'T'HHmmss'Z', got '" + amzDate + "'.");
    }
    if (!presigned && at < nowMillis - MAX_SKEW_MILLIS) {
      throw mismatch("Signature expired: " + amzDate + " is now earlier than "
          + AMZ_DATE.format(Instant.ofEpochMilli(nowMillis - MAX_SKEW_MILLIS)) + " ("
          + AMZ_DATE.format(Instant.ofEpochMilli(nowMillis)) + " - 15 min.)");
    }
    if (at > nowMillis + MAX_SKEW_MILLIS) {
      throw mismatch("Signature not yet current: " + amzDate + " is still later than "
          + AMZ_DATE.format(Instant.ofEpochMilli(nowMillis + MAX_SKEW_MILLIS)) + " ("
          + AMZ_DATE.format(Instant.ofEpochMilli(nowMillis)) + " + 15 min.)");
    }
    return at;
  }

  private static String first(List<String> values) {
    return values.isEmpty() ? null : values.get(0);
  }

  private static SqsException mismatch(String message) {
    return new SqsException(ErrorCode.SIGNATURE_DOES_NOT_MATCH, message);
  }

  private static SqsException incomplete(String message) {
    return new SqsException(ErrorCode.INCOMPLETE_SIGNATURE, message);
  }
}
