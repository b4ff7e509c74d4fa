package org.dise.runtime.cpu;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The emulator's tuning knobs, JVM system properties {@code -Dacf.NAME=VALUE} (spec/emulator.md,
 * "System properties"), declared and checked in one place. The classes that use a knob read it when
 * they are first loaded, in the middle of a run; {@link #check} reads them all before the run, so
 * that a bad value is one clear error naming the property and what it takes, instead of an error
 * inside class initialisation, and a value out of range is refused instead of clamped.
 */
public final class EmulatorProperties {
  private EmulatorProperties() {}

  /** A knob: its property name, the default, and the values it takes. */
  public abstract static sealed class Knob<T> permits Choice, Count, Flag, Text {
    final String name;

    Knob(String name) {
      this.name = name;
    }

    /** The property's name, with its {@code acf.} prefix. */
    public String name() {
      return name;
    }

    /** What it takes, for messages and the property list. */
    abstract String values();

    /** The parsed value of {@code text}, or an {@link IllegalArgumentException} saying why not. */
    abstract T parse(String text);

    abstract T defaultValue();

    /** The value set for this JVM, or the default; a bad value throws, naming the property. */
    public T value() {
      return value(System.getProperties());
    }

    T value(Properties props) {
      String text = props.getProperty(name);
      return text == null ? defaultValue() : parse(text.strip());
    }

    IllegalArgumentException bad(String text) {
      return new IllegalArgumentException("-D" + name + "=" + text + ": expected " + values());
    }
  }

  /** One of a few words. */
  public static final class Choice extends Knob<String> {
    private final List<String> words;

    Choice(String name, String... words) {
      super(name);
      this.words = List.of(words);
    }

    @Override
    String values() {
      return String.join(" or ", words) + " (default " + words.get(0) + ")";
    }

    @Override
    String parse(String text) {
      if (!words.contains(text)) {
        throw bad(text);
      }
      return text;
    }

    @Override
    String defaultValue() {
      return words.get(0);
    }
  }

  /** A whole number in a range. */
  public static final class Count extends Knob<Integer> {
    private final int dflt;
    private final int min;
    private final int max;

    Count(String name, int dflt, int min, int max) {
      super(name);
      this.dflt = dflt;
      this.min = min;
      this.max = max;
    }

    @Override
    String values() {
      return "a whole number from " + min + " to " + max + " (default " + dflt + ")";
    }

    @Override
    Integer parse(String text) {
      int n;
      try {
        n = Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw bad(text);
      }
      if (n < min || n > max) {
        throw bad(text);
      }
      return n;
    }

    @Override
    Integer defaultValue() {
      return dflt;
    }
  }

  /** On or off: {@code true} or {@code false}. */
  public static final class Flag extends Knob<Boolean> {
    private final boolean dflt;

    Flag(String name, boolean dflt) {
      super(name);
      this.dflt = dflt;
    }

    @Override
    String values() {
      return "true or false (default " + dflt + ")";
    }

    @Override
    Boolean parse(String text) {
      return switch (text) {
        case "true" -> true;
        case "false" -> false;
        default -> throw bad(text);
      };
    }

    @Override
    Boolean defaultValue() {
      return dflt;
    }
  }

  /** Any text (a path), empty (off) by default. */
  public static final class Text extends Knob<String> {
    Text(String name) {
      super(name);
    }

    @Override
    String values() {
      return "a directory (default none)";
    }

    @Override
    String parse(String text) {
      if (text.isEmpty()) {
        throw bad(text);
      }
      return text;
    }

    @Override
    String defaultValue() {
      return "";
    }
  }

  /** Where a translated unit keeps guest registers ({@link UnitRegisters}). */
  public static final Choice UNIT_REGS = new Choice("acf.unitRegs", "memory", "locals");

  /** How many of a unit's registers stay in locals in the memory shape ({@link UnitRegisters}). */
  public static final Count UNIT_REGS_HELD = new Count("acf.unitRegsHeld", 4, 0, 31);

  /** The most bytes of a unit's dispatch method ({@link BlockCompiler#UNIT_BYTES}). */
  public static final Count UNIT_BYTES =
      new Count("acf.unitBytes", 4000, 500, BytecodeTranslator.HUGE_METHOD);

  /**
   * Chained entries from one unit into another, counted per slot of the link table, at which the
   * two are translated again as one unit ({@link BlockCompiler#join}); 0: off.
   */
  public static final Count JOIN_UNITS = new Count("acf.joinUnits", 100_000, 0, 1 << 30);

  /** Joins one block may take part in ({@link BlockCompiler#MAX_JOINS}). */
  public static final Count MAX_JOINS = new Count("acf.maxJoins", 4, 1, 64);

  /** The most blocks of a unit made by a join ({@link BlockCompiler#join}). */
  public static final Count JOIN_BLOCKS = new Count("acf.joinBlocks", 48, 2, 1024);

  /**
   * The most bytes of the dispatch method of a unit made by a join ({@link BlockCompiler#join}).
   */
  public static final Count JOIN_BYTES =
      new Count("acf.joinBytes", 4000, 500, BytecodeTranslator.HUGE_METHOD);

  /**
   * The most blocks of an earlier unit that a new region takes in when one of its blocks goes on to
   * the unit's blocks by a static edge ({@link Region#form}); 0: off.
   */
  public static final Count ABSORB_UNITS = new Count("acf.absorbUnits", 0, 0, 48);

  /**
   * Divides the translation threshold into the fewest runs that admit a block into a hot block's
   * region ({@link Region#WARM_DIVISOR}).
   */
  public static final Count WARM_DIVISOR = new Count("acf.warmDivisor", 4, 1, 1 << 20);

  /** Bytes of dispatch methods per step of the translation threshold; 0: none. */
  public static final Count FOOTPRINT_STEP =
      new Count("acf.footprintStep", 256 << 10, 0, Integer.MAX_VALUE);

  /** Retired instructions per byte of translated dispatch method; 0: no budget. */
  public static final Count TRANSLATE_BUDGET = new Count("acf.translateBudget", 0, 0, 1_000_000);

  /** Bytes of dispatch method a budgeted run may translate before earning any; 0: none. */
  public static final Count TRANSLATE_GRANT =
      new Count("acf.translateGrant", 0, 0, Integer.MAX_VALUE);

  /**
   * Whether units are generated on a translator thread beside the emulating thread ({@link
   * BlockCompiler#translateThread}); auto: when the JVM has at least four processors.
   */
  public static final Choice TRANSLATE_THREAD =
      new Choice("acf.translateThread", "auto", "true", "false");

  /** How units' classes get stack map frames ({@link BytecodeTranslator#unitFrames}). */
  public static final Choice UNIT_FRAMES = new Choice("acf.unitFrames", "asm", "emitted", "false");

  /** How deep translated calls nest on the host stack; 0: off ({@link UnitContext}). */
  public static final Count CALL_DEPTH = new Count("acf.callDepth", 0, 0, 1024);

  /**
   * Which instructions of a unit its fault handler covers ({@link FaultRanges}): {@code calls}, the
   * ones that can throw a guest fault; {@code unit}, one range over the whole unit (as before).
   */
  public static final Choice FAULT_RANGES = new Choice("acf.faultRanges", "calls", "unit");

  /** Whether units record why they return to the dispatcher ({@link UnitContext#EXIT_STATS}). */
  public static final Flag EXIT_STATS = new Flag("acf.exitStats", false);

  /**
   * Whether a conditional branch is one long compare and jump ({@link InsnEmitter}) instead of its
   * {@link Semantics} method's boolean and a test of it.
   */
  public static final Flag COMPARE_JUMP = new Flag("acf.compareJump", true);

  /** Whether lbu and lhu zero-extend the loaded int before widening it ({@link InsnEmitter}). */
  public static final Flag INT_ZERO_EXTEND = new Flag("acf.intZeroExtend", true);

  /**
   * Whether a branch, jump or fall-through to a block of the same unit jumps straight to that
   * block's code ({@link BytecodeTranslator}) instead of leaving its pc in a local for the dispatch
   * part to compare.
   */
  public static final Flag DIRECT_EDGES = new Flag("acf.directEdges", true);

  /**
   * How many registers named in a unit's loops ({@link #LOOP_SCOPE}) may stay in locals beyond
   * {@link #UNIT_REGS_HELD} ({@link UnitRegisters}); 0: the choice ignores loops.
   */
  public static final Count LOOP_REGS = new Count("acf.loopRegs", 4, 0, 27);

  /**
   * Which of a unit's blocks are the loops {@link #LOOP_REGS} favours: {@code self}, the blocks
   * that branch back to their own start; {@code all}, every block on a cycle of the unit.
   */
  public static final Choice LOOP_SCOPE = new Choice("acf.loopScope", "self", "all");

  /**
   * Whether the run loop finds the next unit in a small table of translated blocks ({@link
   * DecodeCache#linkCode}) before the block cache's page arrays.
   */
  public static final Flag DISPATCH_LINKS = new Flag("acf.dispatchLinks", true);

  /** A directory each translated unit's class file is written to, for javap; none by default. */
  public static final Text DUMP_UNITS = new Text("acf.dumpUnits");

  /** Every knob, in the order spec/emulator.md lists them. */
  public static final List<Knob<?>> ALL =
      List.of(
          UNIT_REGS,
          UNIT_REGS_HELD,
          UNIT_BYTES,
          JOIN_UNITS,
          MAX_JOINS,
          JOIN_BLOCKS,
          JOIN_BYTES,
          ABSORB_UNITS,
          WARM_DIVISOR,
          FOOTPRINT_STEP,
          TRANSLATE_BUDGET,
          TRANSLATE_GRANT,
          TRANSLATE_THREAD,
          UNIT_FRAMES,
          FAULT_RANGES,
          CALL_DEPTH,
          EXIT_STATS,
          COMPARE_JUMP,
          INT_ZERO_EXTEND,
          DIRECT_EDGES,
          LOOP_REGS,
          LOOP_SCOPE,
          DISPATCH_LINKS,
          DUMP_UNITS);

  /**
   * Properties named {@code acf.*} that are not the emulator's but are known to the tools around it
   * (the test suites' switches), so that setting them is no typo.
   */
  private static final List<String> OTHERS =
      List.of("acf.updateGolden", "acf.updateDocs", "acf.fuzzSeed", "acf.fuzzSeconds");

  /** What is wrong with the knobs set in this JVM: empty when all is well. */
  public static Problems check() {
    return check(System.getProperties());
  }

  /** {@link #check()} over the given properties. */
  static Problems check(Properties props) {
    List<String> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (String key : props.stringPropertyNames()) {
      if (!key.startsWith("acf.")) {
        continue;
      }
      Knob<?> knob = named(key);
      if (knob != null) {
        try {
          knob.value(props);
        } catch (IllegalArgumentException e) {
          errors.add(e.getMessage());
        }
      } else if (!OTHERS.contains(key)) {
        warnings.add("-D" + key + " is not a property acf reads (it has: " + names() + ")");
      }
    }
    return new Problems(List.copyOf(errors), List.copyOf(warnings));
  }

  private static Knob<?> named(String key) {
    for (Knob<?> k : ALL) {
      if (k.name.equals(key)) {
        return k;
      }
    }
    return null;
  }

  private static String names() {
    List<String> names = new ArrayList<>();
    for (Knob<?> k : ALL) {
      names.add(k.name);
    }
    return String.join(", ", names);
  }

  /** Bad values (the run must not start) and unknown names (probably typos). */
  public record Problems(List<String> errors, List<String> warnings) {
    /**
     * Says them on {@code err}, each line headed by {@code program} ({@code acf}, {@code
     * acf-runtime}); true when the run may start (no bad value).
     */
    public boolean report(PrintStream err, String program) {
      for (String w : warnings) {
        err.println(program + ": warning: " + w);
      }
      for (String e : errors) {
        err.println(program + ": " + e);
      }
      return errors.isEmpty();
    }
  }
}
