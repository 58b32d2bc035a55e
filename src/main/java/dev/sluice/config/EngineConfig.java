package dev.sluice.config;

/** The {@code engine} section (0 means "derive from the machine" where src/site/markdown/configuration.md says so). */
public record EngineConfig(
    int eventLoops,
    int shards,
    String dispatch,
    long memoryBudgetBytes,
    int maxParkedReceives,
    int maxParkedReceivesPerQueue,
    int maxInflightPerQueue,
    int maxQueues) {}
