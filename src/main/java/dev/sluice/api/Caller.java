package dev.sluice.api;

/**
 * Who sent a request and how to answer them, independent of the wire protocol.
 *
 * @param requestId the id echoed in {@code x-amzn-RequestId}
 * @param baseUrl scheme, host and port that queue URLs handed to this caller start with
 * @param senderId the identity recorded as a message's SenderId (the signing access key id)
 * @param traceHeader the {@code X-Amzn-Trace-Id} HTTP header, captured as AWSTraceHeader on sends
 */
public record Caller(String requestId, String baseUrl, String senderId, String traceHeader) {}
