package dev.sluice.client;

import java.util.List;

/**
 * The event-bus addresses of the push protocol as this client speaks them (the server's own list is
 * in its push package, which the client does not depend on; src/site/markdown/push.md describes
 * both).
 */
public final class ProtocolAddresses {
  public static final String SUBSCRIBE = "sluice.subscribe";
  public static final String ACK = "sluice.ack";
  public static final String NACK = "sluice.nack";
  public static final String EXTEND = "sluice.extend";
  public static final String UNSUBSCRIBE = "sluice.unsubscribe";
  /** Adds demand credits to a subscription made with {@code "credit": "demand"}. */
  public static final String CREDIT = "sluice.credit";
  /** The addresses a client sends requests to. */
  public static final List<String> REQUESTS = List.of(SUBSCRIBE, ACK, NACK, EXTEND, UNSUBSCRIBE, CREDIT);
  /** Followed by a random id: where one subscription's messages are pushed. */
  public static final String DELIVERY_PREFIX = "sluice.push.";

  private ProtocolAddresses() {}
}
