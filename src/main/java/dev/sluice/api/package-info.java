/**
 * The wire-neutral contract: one file per SQS action with its request and response records,
 * {@link dev.sluice.api.ErrorCode} (the one table of errors), {@link dev.sluice.api.SqsException}
 * and the SQS limits. Imports nothing of Sluice's and no Vert.x: both protocols and the engine speak
 * it.
 */
package dev.sluice.api;
