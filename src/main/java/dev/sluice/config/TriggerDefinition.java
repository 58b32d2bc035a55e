package dev.sluice.config;

/**
 * A queue trigger of the configuration ({@code triggers:}): the queue it consumes, named in its
 * account and region (sqs.accountId and sqs.region unless the entry names others), which is also
 * the account it consumes as, and the rest of the entry as the admin API's request body, in JSON,
 * with {@code ${env:NAME}} in header values resolved. {@code key} is where it was defined, e.g.
 * {@code triggers[0]}, for error messages and the trigger's Origin.
 */
public record TriggerDefinition(String key, String accountId, String region, String queueName, String requestJson) {}
