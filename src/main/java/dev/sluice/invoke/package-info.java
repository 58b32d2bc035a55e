/**
 * The runtime of queue triggers (design/triggers.md §2.6-2.7): each trigger's pollers receive from
 * its queue through the engine, as any consumer does, post batches to its target and settle them
 * as the target's answer says.
 */
package dev.sluice.invoke;
