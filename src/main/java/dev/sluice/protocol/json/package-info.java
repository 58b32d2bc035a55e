/** The AWS JSON 1.0 protocol: its parser, reader, writer, responses and its one error renderer. */
package dev.sluice.protocol.json;
