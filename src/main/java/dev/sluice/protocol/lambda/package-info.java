/**
 * The triggers' admin API in Lambda's REST-JSON form (design/triggers.md §2.4): request bodies read
 * into api records, event source mappings written as Lambda answers them, and Lambda's errors,
 * rendered in one place.
 */
package dev.sluice.protocol.lambda;
