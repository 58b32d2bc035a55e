package dev.sluice.config;

import java.util.List;

/**
 * The {@code push} section: the event-bus bridges that push messages to subscribers.
 * {@code allowedOrigins}: browser origins accepted besides the server's own ("*" for any).
 */
public record PushConfig(boolean enabled, String path, String tcpHost, int tcpPort, int maxFrameBytes, int maxPrefetch,
    List<String> allowedOrigins) {}
