/**
 * The Vert.x internals Sluice relies on, behind one class ({@link dev.sluice.runtime.EventLoops}):
 * nothing else imports {@code io.vertx.core.internal}. Imports nothing of Sluice's.
 */
package dev.sluice.runtime;
