package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;

/** How values of one declared type are written and read: built once, when a record is registered. */
interface ValueCodec {
  void write(Buffer out, Object value);

  Object read(WireReader in);

  /** The type as the schema hash sees it, nested records spelt out. */
  String schema();
}
