/**
 * Amazon SNS subscription filter policies, evaluated as AWS evaluates them: {@link
 * dev.sluice.topics.filter.FilterPolicy#parse} validates a policy with AWS's limits and error
 * texts and compiles it; the compiled policy decides whether a message's attributes (scope
 * MessageAttributes) or its JSON body (scope MessageBody) match. Pure: no Vert.x, no I/O, no clock,
 * so the SNS API layer and the fan-out can share one immutable policy per subscription. Imports
 * {@code model} only for its JSON reader.
 */
package dev.sluice.topics.filter;
