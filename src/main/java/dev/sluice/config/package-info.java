/**
 * The configuration: every key with its environment variable, one record per section, and the
 * loader that layers the bundled defaults, a file and the environment, failing on the first bad
 * value by name. Imports nothing of Sluice's.
 */
package dev.sluice.config;
