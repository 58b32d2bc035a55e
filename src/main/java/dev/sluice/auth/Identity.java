package dev.sluice.auth;

/**
 * Who a request acts as: the access key id that signed it (null when unsigned), the account it acts
 * as and the region it acts in.
 */
public record Identity(String accessKeyId, String accountId, String region) {}
