package org.dise.runtime.timing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A timing model's parameters: the model's defaults ({@link Parameter}), then what a configuration
 * file ({@code --timing-config FILE}: {@code name = value} lines, {@code #} comments) or a caller
 * sets. Every parameter and its source is in spec/timing.md.
 */
public final class TimingConfig {
  /** One parameter: its name, its defaults for {@code inorder} and {@code ooo}, what it is. */
  public record Parameter(String name, String inorder, String ooo, String meaning) {}

  /** Every parameter, in the order {@code acf timing list} prints them. */
  public static final List<Parameter> PARAMETERS =
      List.of(
          new Parameter("width", "1", "4", "instructions dispatched and committed per cycle"),
          new Parameter("rob", "1", "128", "reorder buffer entries (the instruction window)"),
          new Parameter(
              "frontend", "2", "10", "cycles from fetch to execute: a misprediction's refill"),
          new Parameter("l1i.size", "16384", "32768", "L1 instruction cache bytes"),
          new Parameter("l1i.ways", "32", "2", "L1 I associativity"),
          new Parameter("l1i.line", "32", "64", "L1 I line bytes"),
          new Parameter("l1d.size", "8192", "32768", "L1 data cache bytes"),
          new Parameter("l1d.ways", "32", "2", "L1 D associativity"),
          new Parameter("l1d.line", "32", "32", "L1 D line bytes"),
          new Parameter("l1d.write_allocate", "false", "true", "a store miss brings the line in"),
          new Parameter("l2.size", "0", "1048576", "unified L2 bytes (0: no L2)"),
          new Parameter("l2.ways", "4", "4", "L2 associativity"),
          new Parameter("l2.line", "64", "64", "L2 line bytes"),
          new Parameter("l2.latency", "0", "12", "cycles an L1 miss that hits the L2 adds"),
          new Parameter("memory.latency", "10", "100", "cycles a miss to memory adds"),
          new Parameter(
              "bp.kind", "static", "gshare", "direction predictor: static, bimodal, gshare"),
          new Parameter("bp.entries", "512", "4096", "2-bit counters of the predictor"),
          new Parameter("bp.history_bits", "0", "12", "global history bits (gshare)"),
          new Parameter("btb.entries", "0", "512", "branch target buffer entries (0: none)"),
          new Parameter("btb.ways", "1", "4", "BTB associativity"),
          new Parameter("ras.entries", "0", "16", "return-address stack entries (0: none)"),
          new Parameter("lat.alu", "1", "1", "integer ALU result latency"),
          new Parameter("lat.load", "2", "2", "load-to-use latency on an L1 hit"),
          new Parameter("lat.mul", "3", "6", "integer multiply latency"),
          new Parameter("lat.div", "35", "35", "integer divide latency (not pipelined)"),
          new Parameter("lat.fp_add", "470", "2", "FP add, compare, convert, move latency"),
          new Parameter("lat.fp_mul", "470", "2", "FP multiply and fused multiply-add latency"),
          new Parameter("lat.fp_div", "470", "19", "FP divide latency"),
          new Parameter("lat.fp_sqrt", "470", "33", "FP square root latency"),
          new Parameter(
              "handler.code_bytes",
              "160",
              "160",
              "bytes of a modelled handler's code fetched through the L1 I per call"),
          new Parameter(
              "handler.entry_bytes",
              "32",
              "32",
              "bytes of a modelled handler's table entry (one D-cache access per call)"),
          new Parameter(
              "handler.table_entries",
              "4096",
              "4096",
              "slots of a handler's hash table: a modelled handler's, and each real handler's"
                  + " (a power of two)"),
          new Parameter(
              "handler.code",
              "true",
              "true",
              "run each sink's handler as RISC-V code on a shadow hart when it has one (false:"
                  + " every handler is modelled from its sink's cost)"),
          new Parameter(
              "sample.period",
              "0",
              "0",
              "sampled timing: one detailed unit every this many application instructions (0: all"
                  + " detailed); caches and predictors warmed in between"),
          new Parameter(
              "sample.unit", "1000", "1000", "sampled timing: application instructions measured"),
          new Parameter(
              "sample.warmup",
              "2000",
              "2000",
              "sampled timing: detailed instructions before each unit, not measured"),
          new Parameter(
              "energy.ireg_nj",
              "4.2238",
              "4.2238",
              "nJ per integer instruction and per bubble cycle (Fig. 14(b) IREG)"),
          new Parameter(
              "energy.imem_r_nj",
              "49.995",
              "49.995",
              "nJ per load or fetch that misses the L1 (Fig. 14(b) IMEM-R)"),
          new Parameter(
              "energy.imem_w_nj",
              "115.27",
              "115.27",
              "nJ per store that misses the L1 D (Fig. 14(b) IMEM-W)"),
          new Parameter(
              "energy.fp_nj",
              "2198.2",
              "2198.2",
              "nJ per floating-point instruction (Fig. 14(b) FPREG, emulated in software)"),
          new Parameter(
              "energy.byte_nj",
              "1036.4",
              "1036.4",
              "nJ per byte sent over the 11 Mb/s wireless card (5 V x 0.285 A)"));

  /** The models, each with its defaults' column. */
  public static final List<String> MODELS = List.of("inorder", "ooo");

  private final String model;
  private final Map<String, String> values = new LinkedHashMap<>();

  private TimingConfig(String model) {
    this.model = model;
    for (Parameter p : PARAMETERS) {
      values.put(p.name(), model.equals("inorder") ? p.inorder() : p.ooo());
    }
  }

  /** The defaults of {@code model} ({@code inorder} or {@code ooo}). */
  public static TimingConfig defaults(String model) {
    if (!MODELS.contains(model)) {
      throw new IllegalArgumentException(
          "unknown timing model `" + model + "` (the models: " + String.join(", ", MODELS) + ")");
    }
    return new TimingConfig(model);
  }

  public String model() {
    return model;
  }

  /** Sets one parameter; an unknown name or a malformed value is an error naming it. */
  public TimingConfig set(String name, String value) {
    if (!values.containsKey(name)) {
      throw new IllegalArgumentException(
          "unknown timing parameter `" + name + "` (`acf timing list` names them)");
    }
    String old = values.get(name);
    if (isNumber(old) && !isNumber(value)) {
      throw new IllegalArgumentException(
          "timing parameter `" + name + "` takes a whole number, not `" + value + "`");
    }
    if (isDecimal(old) && !value.matches("[0-9]+(\\.[0-9]+)?")) {
      throw new IllegalArgumentException(
          "timing parameter `" + name + "` takes a number, not `" + value + "`");
    }
    if ((old.equals("true") || old.equals("false"))
        && !(value.equals("true") || value.equals("false"))) {
      throw new IllegalArgumentException(
          "timing parameter `" + name + "` takes true or false, not `" + value + "`");
    }
    values.put(name, value);
    return this;
  }

  /** Reads {@code name = value} lines from {@code file} over these values. */
  public TimingConfig read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (text.isEmpty()) {
        continue;
      }
      int eq = text.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException(
            file + ":" + (i + 1) + ":1: expected `name = value`, found `" + text + "`");
      }
      try {
        set(text.substring(0, eq).strip(), text.substring(eq + 1).strip());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            file + ":" + (i + 1) + ":" + (line.indexOf(text) + 1) + ": " + e.getMessage());
      }
    }
    return this;
  }

  public int integer(String name) {
    return Integer.parseInt(get(name));
  }

  public double decimal(String name) {
    return Double.parseDouble(get(name));
  }

  public boolean bool(String name) {
    return Boolean.parseBoolean(get(name));
  }

  public String string(String name) {
    return get(name);
  }

  private String get(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException("unknown timing parameter `" + name + "`");
    }
    return v;
  }

  /** Every parameter with its value, in {@link #PARAMETERS} order. */
  public Map<String, String> values() {
    return java.util.Collections.unmodifiableMap(values);
  }

  private static boolean isNumber(String s) {
    return s.matches("-?[0-9]+");
  }

  private static boolean isDecimal(String s) {
    return s.matches("[0-9]+\\.[0-9]+");
  }
}
