/**
 * The Query protocol: {@code Action=} parameters from a form body or a query string in, XML in the
 * 2012-11-05 namespace out, and its one error renderer.
 */
package dev.sluice.protocol.query;
