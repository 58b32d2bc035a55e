/**
 * The Vert.x internals Sluice relies on, behind two classes: {@link dev.sluice.runtime.EventLoops}
 * (contexts, promises, a connection's pipeline) and {@link dev.sluice.runtime.ConnectionFootprint}
 * (a connection's pre-allocated outbound queue, reached by reflection); nothing else imports
 * {@code io.vertx.core.internal}. Imports nothing of Sluice's.
 */
package dev.sluice.runtime;
