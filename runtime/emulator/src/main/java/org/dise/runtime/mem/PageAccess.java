package org.dise.runtime.mem;

import java.lang.reflect.Field;
import java.nio.ByteOrder;

/**
 * Little-endian reads and writes of 2, 4 and 8 bytes inside one page array, for translated code
 * that has already checked the page and the offset (the page is a {@link Memory#PAGE_SIZE}-byte
 * array and {@code 0 <= off <= PAGE_SIZE - size}). C1, which compiles translated units, inlines a
 * {@code byteArrayViewVarHandle} access as its whole guard and index-check chain (about twenty
 * inlined methods per access, with the generic fallback path); {@code sun.misc.Unsafe}'s plain
 * accessors are intrinsics that C1 turns into one machine load or store. Hosts where unaligned
 * plain accesses are not allowed, or where Unsafe is not available, use the VarHandles.
 */
final class PageAccess {
  private PageAccess() {}

  /** Null where Unsafe is not available; also lent to translated units ({@link Memory#unsafe}). */
  static final sun.misc.Unsafe U = unsafe();

  private static final long BASE = U == null ? 0 : U.arrayBaseOffset(byte[].class);
  private static final boolean BIG = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

  /** True when the raw accessors are used (Unsafe found and unaligned access allowed). */
  static final boolean RAW = U != null && unalignedOk();

  private static sun.misc.Unsafe unsafe() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** The architectures whose plain loads and stores may be unaligned (the JDK's own list). */
  private static boolean unalignedOk() {
    String arch = System.getProperty("os.arch", "");
    return switch (arch) {
      case "amd64", "x86_64", "x86", "i386", "aarch64", "ppc64", "ppc64le", "s390x" -> true;
      default -> false;
    };
  }

  static short get16(byte[] page, int off) {
    short v = U.getShort(page, BASE + off);
    return BIG ? Short.reverseBytes(v) : v;
  }

  static int get32(byte[] page, int off) {
    int v = U.getInt(page, BASE + off);
    return BIG ? Integer.reverseBytes(v) : v;
  }

  static long get64(byte[] page, int off) {
    long v = U.getLong(page, BASE + off);
    return BIG ? Long.reverseBytes(v) : v;
  }

  static void put16(byte[] page, int off, short v) {
    U.putShort(page, BASE + off, BIG ? Short.reverseBytes(v) : v);
  }

  static void put32(byte[] page, int off, int v) {
    U.putInt(page, BASE + off, BIG ? Integer.reverseBytes(v) : v);
  }

  static void put64(byte[] page, int off, long v) {
    U.putLong(page, BASE + off, BIG ? Long.reverseBytes(v) : v);
  }
}
