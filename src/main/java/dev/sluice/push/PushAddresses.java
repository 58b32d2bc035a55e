package dev.sluice.push;

/**
 * The event-bus addresses of the push protocol (src/site/markdown/push.md). Clients may send only to
 * the six request addresses and register only on the delivery address of a subscription they
 * made; everything else is refused by the bridges.
 */
public final class PushAddresses {
  public static final String SUBSCRIBE = "sluice.subscribe";
  public static final String ACK = "sluice.ack";
  public static final String NACK = "sluice.nack";
  public static final String EXTEND = "sluice.extend";
  public static final String UNSUBSCRIBE = "sluice.unsubscribe";
  /** More credits for a subscription made with {@code "credit": "demand"}. */
  public static final String CREDIT = "sluice.credit";
  /** The addresses a client may send requests to. */
  public static final java.util.List<String> REQUESTS =
      java.util.List.of(SUBSCRIBE, ACK, NACK, EXTEND, UNSUBSCRIBE, CREDIT);
  /** Followed by a random id: where one subscription's messages are pushed. */
  public static final String DELIVERY_PREFIX = "sluice.push.";
  /**
   * Header the bridges set on every request with the id of the connection it came from (the only
   * header a request keeps: whatever a client sent is dropped), so that a subscription answers only
   * to its own connection.
   */
  static final String CONNECTION_HEADER = "sluice-connection";
  /** Who the connection acts as, stamped by the bridge guard: account, region and access key id. */
  static final String ACCOUNT_HEADER = "sluice-account";
  static final String REGION_HEADER = "sluice-region";
  static final String ACCESS_KEY_HEADER = "sluice-access-key";
  /** Local only, never bridged: a connection closed; its subscriptions end. */
  static final String CONNECTION_CLOSED = "sluice.internal.connection-closed";
  /** Local only, never bridged: a client stopped listening on a delivery address; it ends. */
  static final String DELIVERY_UNREGISTERED = "sluice.internal.delivery-unregistered";
  /** Local only, never bridged: a client registered on a delivery address; pushing may start. */
  static final String DELIVERY_REGISTERED = "sluice.internal.delivery-registered";
  /** Internal: the server is stopping; every subscription ends and no new one is taken. */
  static final String STOPPING = "sluice.internal.stopping";
  /**
   * Internal: the server stops serving for a while (false; every subscription ends and no new one
   * is taken) or serves again (true).
   */
  static final String SERVING = "sluice.internal.serving";

  private PushAddresses() {}

  static boolean isRequest(String address) {
    return REQUESTS.contains(address);
  }
}
