/**
 * The server put together: {@link dev.sluice.Main} (command line, signals, exit codes),
 * {@link dev.sluice.Sluice} (the boot order and the graceful stop) and the queues created at
 * start-up. The one package that may import every other.
 */
package dev.sluice;
