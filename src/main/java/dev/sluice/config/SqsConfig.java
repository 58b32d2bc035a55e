package dev.sluice.config;

/** The {@code sqs} section: identity used in queue URLs and ARNs. */
public record SqsConfig(String accountId, String region) {}
