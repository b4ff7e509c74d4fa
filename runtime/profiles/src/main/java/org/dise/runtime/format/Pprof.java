package org.dise.runtime.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.dise.runtime.elf.LineTable;
import org.dise.runtime.elf.SymbolTable;

/**
 * Writes a {@link StackProfile} as a gzipped pprof profile ({@code profile.proto} of
 * github.com/google/pprof, which pprof, Pyroscope and speedscope read): one sample per stack, a
 * function and a location per symbol. The dozen fields it needs are encoded by hand ({@link
 * ProtoWriter}) rather than through protobuf-java, so the runtime modules keep depending on the JDK
 * alone (runtime/README.md).
 */
public final class Pprof {
  private Pprof() {}

  // profile.proto field numbers.
  private static final int PROFILE_SAMPLE_TYPE = 1;
  private static final int PROFILE_SAMPLE = 2;
  private static final int PROFILE_LOCATION = 4;
  private static final int PROFILE_FUNCTION = 5;
  private static final int PROFILE_STRING_TABLE = 6;
  private static final int PROFILE_PERIOD_TYPE = 11;
  private static final int PROFILE_PERIOD = 12;
  private static final int PROFILE_COMMENT = 13;
  private static final int PROFILE_DEFAULT_SAMPLE_TYPE = 14;
  private static final int VALUE_TYPE_TYPE = 1;
  private static final int VALUE_TYPE_UNIT = 2;
  private static final int SAMPLE_LOCATION_ID = 1;
  private static final int SAMPLE_VALUE = 2;
  private static final int LOCATION_ID = 1;
  private static final int LOCATION_ADDRESS = 3;
  private static final int LOCATION_LINE = 4;
  private static final int LINE_FUNCTION_ID = 1;
  private static final int LINE_LINE = 2;
  private static final int FUNCTION_ID = 1;
  private static final int FUNCTION_NAME = 2;
  private static final int FUNCTION_SYSTEM_NAME = 3;
  private static final int FUNCTION_FILENAME = 4;
  private static final int FUNCTION_START_LINE = 5;

  /**
   * The profile, gzipped as pprof expects; {@code comment} goes into its comments ("" for none).
   */
  public static byte[] gzipped(StackProfile p, String comment) {
    return gzipped(p, comment, SymbolTable.empty());
  }

  /**
   * As above, with each function's source file and first line and each location's line from {@code
   * symbols}' line tables (a program built with {@code -g}).
   */
  public static byte[] gzipped(StackProfile p, String comment, SymbolTable symbols) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(encode(p, comment, symbols));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The profile message, not compressed. */
  public static byte[] encode(StackProfile p, String comment) {
    return encode(p, comment, SymbolTable.empty());
  }

  /** The profile message with source lines from {@code symbols}, not compressed. */
  public static byte[] encode(StackProfile p, String comment, SymbolTable symbols) {
    Map<String, Integer> strings = new LinkedHashMap<>();
    strings.put("", 0); // string_table[0] must be the empty string
    Map<StackProfile.Frame, Integer> functions = new LinkedHashMap<>();
    ProtoWriter out = new ProtoWriter();
    for (StackProfile.ValueType t : p.types()) {
      out.message(PROFILE_SAMPLE_TYPE, valueType(t, strings));
    }
    for (StackProfile.Sample s : p.samples()) {
      ProtoWriter sample = new ProtoWriter();
      List<StackProfile.Frame> stack = s.stack();
      long[] ids = new long[stack.size()];
      for (int i = 0; i < ids.length; i++) {
        // pprof lists a sample's locations leaf first.
        StackProfile.Frame f = stack.get(stack.size() - 1 - i);
        ids[i] = functions.computeIfAbsent(f, k -> functions.size() + 1);
      }
      sample.packed(SAMPLE_LOCATION_ID, ids);
      sample.packed(SAMPLE_VALUE, s.values());
      out.message(PROFILE_SAMPLE, sample);
    }
    // One location per function, at its entry: the profiles know functions, not the pcs in them.
    Map<StackProfile.Frame, Optional<LineTable.SourceLine>> lines = new LinkedHashMap<>();
    for (StackProfile.Frame f : functions.keySet()) {
      lines.put(f, f.address() == 0 ? Optional.empty() : symbols.line(f.address()));
    }
    for (Map.Entry<StackProfile.Frame, Integer> e : functions.entrySet()) {
      ProtoWriter line = new ProtoWriter();
      line.varint(LINE_FUNCTION_ID, e.getValue());
      Optional<LineTable.SourceLine> source = lines.get(e.getKey());
      if (source.isPresent()) {
        line.varint(LINE_LINE, source.get().line());
      }
      ProtoWriter loc = new ProtoWriter();
      loc.varint(LOCATION_ID, e.getValue());
      loc.varint(LOCATION_ADDRESS, e.getKey().address());
      loc.message(LOCATION_LINE, line);
      out.message(PROFILE_LOCATION, loc);
    }
    for (Map.Entry<StackProfile.Frame, Integer> e : functions.entrySet()) {
      ProtoWriter fn = new ProtoWriter();
      fn.varint(FUNCTION_ID, e.getValue());
      long name = string(e.getKey().name(), strings);
      fn.varint(FUNCTION_NAME, name);
      fn.varint(FUNCTION_SYSTEM_NAME, name);
      Optional<LineTable.SourceLine> source = lines.get(e.getKey());
      if (source.isPresent()) {
        fn.varint(FUNCTION_FILENAME, string(source.get().path(), strings));
        fn.varint(FUNCTION_START_LINE, source.get().line());
      }
      out.message(PROFILE_FUNCTION, fn);
    }
    if (!p.types().isEmpty()) {
      out.message(PROFILE_PERIOD_TYPE, valueType(p.types().get(0), strings));
      out.varint(PROFILE_PERIOD, 1);
      out.varint(PROFILE_DEFAULT_SAMPLE_TYPE, string(p.types().get(0).type(), strings));
    }
    if (!comment.isEmpty()) {
      out.varint(PROFILE_COMMENT, string(comment, strings));
    }
    for (String s : strings.keySet()) {
      out.string(PROFILE_STRING_TABLE, s);
    }
    return out.toByteArray();
  }

  private static ProtoWriter valueType(StackProfile.ValueType t, Map<String, Integer> strings) {
    ProtoWriter w = new ProtoWriter();
    w.varint(VALUE_TYPE_TYPE, string(t.type(), strings));
    w.varint(VALUE_TYPE_UNIT, string(t.unit(), strings));
    return w;
  }

  private static long string(String s, Map<String, Integer> strings) {
    return strings.computeIfAbsent(s, k -> strings.size());
  }
}
