package dev.sluice.cluster;

import dev.sluice.api.Caller;

/**
 * The caller of a forwarded request, as the entry node settled it (design page cluster.md, §2.9):
 * the owner acts for it, and trusts it only because the frame carrying it was authenticated.
 */
public record ForwardedCaller(
    String requestId,
    String baseUrl,
    String senderId,
    String traceHeader,
    String accountId,
    String region,
    String accessKeyId) implements Caller {

  /** No client: a node asking another for itself (a listing's names). */
  public static final ForwardedCaller NOBODY = new ForwardedCaller(null, null, null, null, null, null, null);

  /** The caller's values, read now: call it on the caller's own event loop, as {@link Caller} asks. */
  public static ForwardedCaller of(Caller c) {
    return new ForwardedCaller(c.requestId(), c.baseUrl(), c.senderId(), c.traceHeader(),
        c.accountId(), c.region(), c.accessKeyId());
  }
}
