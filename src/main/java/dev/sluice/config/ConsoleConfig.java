package dev.sluice.config;

/**
 * The {@code console} section (design/console.md §2.2): whether the web console is served, how
 * often its history samples the queues ({@code sampleMillis}), how many queues and topics keep a
 * history ({@code historySeries}, 0: live values only), and how many live-update streams may be
 * open at once, server-wide ({@code maxStreams}).
 */
public record ConsoleConfig(boolean enabled, int sampleMillis, int historySeries, int maxStreams) {}
