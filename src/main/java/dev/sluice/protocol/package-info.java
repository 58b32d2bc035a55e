/**
 * What both SQS wire protocols share: the table of actions ({@link dev.sluice.protocol.SqsActions},
 * each decoded once into its api record and handed to the engine), strict UTF-8 decoding, and how a
 * failure becomes an SQS error. Imports {@code api}, {@code engine} and {@code metrics}.
 */
package dev.sluice.protocol;
