/**
 * The SNS Query protocol (API version 2010-03-31): {@code Action=} with form-encoded members,
 * answered in XML in the SNS namespace. One action table ({@link dev.sluice.protocol.sns.SnsActions}),
 * one reader of flattened members, one renderer of results and one of errors.
 */
package dev.sluice.protocol.sns;
