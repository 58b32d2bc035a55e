/**
 * The SNS API's wire-neutral contract (version 2010-03-31): one file per action with its request
 * and response records, {@link dev.sluice.api.topics.TopicKey}, {@link dev.sluice.api.topics.SnsErrorCode}
 * (the one table of SNS errors) and {@link dev.sluice.api.topics.SnsException}. Like the rest of
 * {@code api}, it imports no Vert.x and nothing above it.
 */
package dev.sluice.api.topics;
