package org.dise.runtime.elf;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over a DWARF section's bytes: little-endian integers, LEB128 numbers and C strings
 * (DWARF 5 section 7.6), which the call frame ({@link CallFrameInfo}) and line ({@link LineTable})
 * readers share. Reading past the end throws {@link IndexOutOfBoundsException}: a truncated entry.
 */
class DwarfBytes {
  final byte[] data;
  int pos;

  DwarfBytes(byte[] data, int pos) {
    this.data = data;
    this.pos = pos;
  }

  final int u8() {
    return data[pos++] & 0xff;
  }

  final int u16() {
    return u8() | u8() << 8;
  }

  final long u32() {
    return (u16() | (long) u16() << 16) & 0xffff_ffffL;
  }

  final long u64() {
    return u32() | u32() << 32;
  }

  final long uleb() {
    return leb(false);
  }

  final long sleb() {
    return leb(true);
  }

  private long leb(boolean signed) {
    long v = 0;
    int shift = 0;
    int x;
    do {
      x = u8();
      if (shift < 64) {
        v |= (long) (x & 0x7f) << shift;
      }
      shift += 7;
    } while ((x & 0x80) != 0);
    if (signed && shift < 64 && (x & 0x40) != 0) {
      v |= -1L << shift;
    }
    return v;
  }

  /** A NUL-terminated UTF-8 string at the cursor; the cursor moves past the NUL. */
  final String cstring() {
    int start = pos;
    while (data[pos] != 0) {
      pos++;
    }
    return new String(data, start, pos++ - start, StandardCharsets.UTF_8);
  }
}
