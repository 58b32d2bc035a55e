package dev.sluice.config;

/** The {@code push} section: the event-bus bridges that push messages to subscribers. */
public record PushConfig(boolean enabled, String path, String tcpHost, int tcpPort, int maxFrameBytes, int maxPrefetch) {}
