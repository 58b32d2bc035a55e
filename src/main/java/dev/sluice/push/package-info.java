/**
 * Push delivery: the SockJS and TCP event-bus bridges, their guard (which addresses a connection
 * may use, frame sizes, the TCP bridge's token and connections) and the push service that keeps
 * subscriptions and consumes through the engine. Imports {@code api}, {@code auth}, {@code config}
 * and {@code engine}.
 */
package dev.sluice.push;
