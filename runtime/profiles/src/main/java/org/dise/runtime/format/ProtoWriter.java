package org.dise.runtime.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The protocol buffers wire format, as much of it as {@link Pprof} needs: varints, packed varints,
 * strings and nested messages (protobuf.dev, "Encoding"). Fields with the default value 0 are still
 * written; decoders accept that.
 */
final class ProtoWriter {
  private static final int VARINT = 0;
  private static final int LENGTH_DELIMITED = 2;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  void varint(int field, long value) {
    tag(field, VARINT);
    raw(value);
  }

  /** A packed repeated int64/uint64 field: one length-delimited run of varints. */
  void packed(int field, long[] values) {
    if (values.length == 0) {
      return;
    }
    ProtoWriter body = new ProtoWriter();
    for (long v : values) {
      body.raw(v);
    }
    bytes(field, body.toByteArray());
  }

  void string(int field, String s) {
    bytes(field, s.getBytes(StandardCharsets.UTF_8));
  }

  void message(int field, ProtoWriter m) {
    bytes(field, m.toByteArray());
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }

  private void bytes(int field, byte[] b) {
    tag(field, LENGTH_DELIMITED);
    raw(b.length);
    out.write(b, 0, b.length);
  }

  private void tag(int field, int wireType) {
    raw(((long) field << 3) | wireType);
  }

  /** A base-128 varint; negative numbers take ten bytes, as int64's encoding does. */
  private void raw(long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
