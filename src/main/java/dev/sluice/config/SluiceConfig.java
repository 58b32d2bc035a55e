package dev.sluice.config;

/** The whole configuration, one record per section of conf/sluice.yaml. */
public record SluiceConfig(HttpConfig http, SqsConfig sqs, EngineConfig engine, StorageConfig storage, PushConfig push,
    OutboundConfig outbound, InvokeConfig invoke, OpsConfig ops, SecurityConfig security, ClusterConfig cluster,
    ConsoleConfig console, OutboxConfig outbox) {}
