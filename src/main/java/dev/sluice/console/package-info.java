/**
 * The console's server-side live data (design/console.md §2.4, §2.6, §2.7): the bounded history of
 * queue and topic samples, the sampler that feeds it on a worker of its own, the JSON views the
 * console's pages read, and the server-sent event streams. No routing: the HTTP glue is
 * {@code http.ConsoleLive}. Imports {@code api}, {@code config}, {@code engine} and {@code runtime}.
 */
package dev.sluice.console;
