/**
 * A Java client for Sluice's push delivery: {@code SluiceClient.subscribe} returns a Mutiny
 * {@code Multi} of deliveries whose downstream demand is the subscription's credit, so the server
 * pushes no more than the subscriber asked for. Built into its own artifact,
 * {@code dev.sluice:sluice-client} (not into the runnable server jar); depends on Vert.x core and
 * Mutiny only, never on the server's classes: imports nothing of Sluice's outside this package, and
 * no server package imports it.
 */
package dev.sluice.client;
