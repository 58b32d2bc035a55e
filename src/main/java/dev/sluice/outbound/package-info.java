/**
 * Requests Sluice makes to other servers (HTTP/HTTPS subscribers of topics): bounded per endpoint,
 * timed out, never blocking an event loop, and optionally kept off private addresses.
 */
package dev.sluice.outbound;
