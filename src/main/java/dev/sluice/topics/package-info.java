/**
 * The pure model of SNS topics: names, ARNs, attributes, tags and the registry of one shard's
 * topics, owned by that shard's event loop with time passed in; filter policies in
 * {@code topics.filter}. No Vert.x and no clock reads, like {@code model}.
 */
package dev.sluice.topics;
