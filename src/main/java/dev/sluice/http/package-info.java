/**
 * The HTTP port: its verticles, the one router that decides which surface a path reaches and who
 * may use it, the bounds on connections and request bodies, the SQS request handler, and the
 * health and metrics endpoints. Imports the packages it serves: {@code api}, {@code auth},
 * {@code config}, {@code engine}, {@code metrics}, {@code model}, {@code protocol}, {@code push}.
 */
package dev.sluice.http;
