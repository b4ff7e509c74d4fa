package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Translated code applies a map call keyed by its pc to the key's slot with a static call of {@code
 * update} (spec/emulator.md, "Per-site slots"), which C1, the units' compiler, inlines only while
 * the method is at most 35 bytes of bytecode ({@code C1MaxInlineSize}; 10% less per level for what
 * it calls in turn); one byte more and every event pays a call with its registers spilled
 * (load_strides: 38 and 39 bytes cost a tenth of the run, docs/benchmarks.md). This reads the sizes
 * from the class files.
 */
class SlotInliningTest {
  /** C1's limit for inlining a method that is not trivial ({@code MaxInlineSize}). */
  private static final int MAX_INLINE_SIZE = 35;

  @Test
  void slotUpdatesOfTheCommonMapsInlineIntoTranslatedCode() throws IOException {
    for (Class<?> slot : List.of(AggregationMap.State.class, AggregationMap.Count.class)) {
      assertInlines(slot, "update");
    }
    assertInlines(HistogramMap.Slot.class, "update");
    // A dense slot's bucket index, one level down (C1 allows 10% less per level:
    // NestedInliningSizeRatio), and a linear one's test against lo, one further.
    assertSizeAtMost(HistogramMap.class, "index", MAX_INLINE_SIZE * 9 / 10);
    assertSizeAtMost(HistogramMap.class, "linearIndex", MAX_INLINE_SIZE * 81 / 100);
  }

  @Test
  void aLinearHistogramWithAPowerOfTwoStepBucketsAsWithAnyOther() {
    // The power-of-two step's shift must bucket as the division does, at each bucket's edges.
    HistogramMap shifted = HistogramMap.linear("s", -64, 64, 8);
    HistogramMap divided = HistogramMap.linear("d", -64, 64, 16);
    for (long v = -80; v <= 80; v++) {
      assertWithMessage("bucket of " + v)
          .that(shifted.index(v))
          .isEqualTo(v < -64 ? 0 : v >= 64 ? 17 : 1 + (int) Math.floorDiv(v + 64, 8));
      assertWithMessage("bucket of " + v + " by 16")
          .that(divided.index(v))
          .isEqualTo(v < -64 ? 0 : v >= 64 ? 9 : 1 + (int) Math.floorDiv(v + 64, 16));
    }
    HistogramMap odd = HistogramMap.linear("o", 3, 100, 7);
    for (long v : new long[] {Long.MIN_VALUE, 2, 3, 9, 10, 99, 100, Long.MAX_VALUE}) {
      // 16 buckets: below 3, 14 of [3 + 7i, 9 + 7i], from 100 up.
      long expected = v < 3 ? 0 : v >= 100 ? 15 : 1 + (v - 3) / 7;
      assertWithMessage("bucket of " + v + " by 7").that((long) odd.index(v)).isEqualTo(expected);
    }
  }

  private static void assertInlines(Class<?> c, String method) throws IOException {
    assertSizeAtMost(c, method, MAX_INLINE_SIZE);
  }

  private static void assertSizeAtMost(Class<?> c, String method, int bytes) throws IOException {
    Map<String, Integer> sizes = codeSizes(c);
    assertWithMessage(c.getSimpleName() + "." + method + " exists").that(sizes).containsKey(method);
    assertWithMessage(c.getSimpleName() + "." + method + "'s bytecode, in bytes")
        .that(sizes.get(method))
        .isAtMost(bytes);
  }

  /** Each method's code length by name (the largest of a name's overloads), from the class file. */
  private static Map<String, Integer> codeSizes(Class<?> c) throws IOException {
    String resource = c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class";
    try (InputStream raw = c.getResourceAsStream(resource);
        DataInputStream in = new DataInputStream(raw)) {
      in.readInt(); // magic
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++; // a long or double takes two entries
          }
          case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          default -> throw new IOException("constant pool tag " + tag + " in " + resource);
        }
      }
      in.readUnsignedShort(); // access
      in.readUnsignedShort(); // this
      in.readUnsignedShort(); // super
      in.skipBytes(2 * in.readUnsignedShort()); // interfaces
      int fields = in.readUnsignedShort();
      for (int f = 0; f < fields; f++) {
        in.skipBytes(6);
        skipAttributes(in);
      }
      Map<String, Integer> sizes = new HashMap<>();
      int methods = in.readUnsignedShort();
      for (int m = 0; m < methods; m++) {
        in.readUnsignedShort(); // access
        String name = utf8[in.readUnsignedShort()];
        in.readUnsignedShort(); // descriptor
        int attributes = in.readUnsignedShort();
        for (int a = 0; a < attributes; a++) {
          String attribute = utf8[in.readUnsignedShort()];
          int length = in.readInt();
          if (attribute.equals("Code")) {
            in.readUnsignedShort(); // max stack
            in.readUnsignedShort(); // max locals
            int code = in.readInt();
            sizes.merge(name, code, Math::max);
            in.skipBytes(length - 8);
          } else {
            in.skipBytes(length);
          }
        }
      }
      return sizes;
    }
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.readUnsignedShort();
      in.skipBytes(in.readInt());
    }
  }
}
