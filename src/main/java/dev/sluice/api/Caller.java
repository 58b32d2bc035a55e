package dev.sluice.api;

/**
 * Who sent a request and how to answer them, independent of the wire protocol. Implementations
 * may derive values lazily from the request, so read them only on the caller's own event loop
 * (the engine does so before handing a call to a shard).
 */
public interface Caller {
  /** The id echoed in {@code x-amzn-RequestId}. */
  String requestId();

  /** Scheme, host and port that queue URLs handed to this caller start with. */
  String baseUrl();

  /** The identity recorded as a message's SenderId (the signing access key id). */
  String senderId();

  /** The {@code X-Amzn-Trace-Id} HTTP header, captured as AWSTraceHeader on sends, or null. */
  String traceHeader();
}
