package org.dise.repl.lsp;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.sem.InstructionField;

/**
 * The hover texts of the language's own words: instruction fields, opcode classes, components,
 * flags and keywords, each with the paper section it follows (spec/acf-language.md cites the first
 * paper, Nagpurkar et al., as §3.x).
 */
final class LanguageDocs {
  private LanguageDocs() {}

  private static final Map<String, String> FIELDS = new LinkedHashMap<>();
  private static final Map<String, String> OPCLASSES = new LinkedHashMap<>();
  private static final Map<String, String> COMPONENTS = new LinkedHashMap<>();
  private static final Map<String, String> KEYWORDS = new LinkedHashMap<>();

  static {
    FIELDS.put(
        "OP",
        "the mnemonic (`add`, `c.addi`, `fadd.s`) or a codeword"
            + " (`on_trig_inst`, `off_trig_inst`); compared with `==` and `!=` only");
    FIELDS.put(
        "OPCLASS",
        "the opcode class: `branch` (conditional), `jump`, `proc_call`,"
            + " `return`, `load`, `store`, `alu`, `muldiv`, `fp`, `atomic`, `system`, `fence`,"
            + " `codeword`");
    FIELDS.put("PC", "the address of the instruction");
    FIELDS.put("TARGET", "the target of a direct branch or jump (0 otherwise)");
    FIELDS.put("RS1", "the first source register's number");
    FIELDS.put("RS2", "the second source register's number");
    FIELDS.put("RS3", "the third source register's number (fused multiply-add)");
    FIELDS.put("RD", "the destination register's number");
    FIELDS.put("IMM", "the immediate");
    FIELDS.put("SIZE", "the instruction's size in bytes: 2 (compressed) or 4");
    FIELDS.put("CSR", "the CSR number of a `csr*` instruction");
    FIELDS.put("ADDR", "the effective address of a load or store");
    FIELDS.put("VALUE", "the loaded or stored value");
    FIELDS.put("RS1_VALUE", "the contents of the first source register");
    FIELDS.put("RS2_VALUE", "the contents of the second source register");
    FIELDS.put("NEXT_PC", "the actual next pc (a `jalr`'s target, a taken branch's target)");
    FIELDS.put(
        "TID",
        "the id of the guest thread running the instruction (its Linux tid; the pid for the"
            + " first thread): a `call` argument, so that maps keyed by it keep threads apart");
    FIELDS.put(
        "INSN",
        "the original, matched instruction: in a replacement sequence it runs"
            + " the instruction itself (§3.4, \"R0 is simply a call to the profile handler and the"
            + " original matched instruction\"); as a `call` argument it is the raw word");

    OPCLASSES.put("branch", "conditional branches (`beq`, `bne`, `blt`, ...)");
    OPCLASSES.put("jump", "unconditional jumps that are neither calls nor returns");
    OPCLASSES.put("proc_call", "`jal`/`jalr` writing `ra` or `t0` (a procedure call)");
    OPCLASSES.put("return", "`jalr x0` through `ra` or `t0` (a procedure return)");
    OPCLASSES.put("load", "loads from memory, integer and floating point");
    OPCLASSES.put("store", "stores to memory, integer and floating point");
    OPCLASSES.put("alu", "integer arithmetic, logic, shifts, `lui`, `auipc`");
    OPCLASSES.put("muldiv", "the M extension: multiply, divide, remainder");
    OPCLASSES.put("fp", "floating-point arithmetic, moves and conversions");
    OPCLASSES.put("atomic", "the A extension: `lr`, `sc`, `amo*`");
    OPCLASSES.put("system", "`ecall`, `ebreak`, CSR instructions");
    OPCLASSES.put("fence", "`fence`, `fence.i`");
    OPCLASSES.put(
        "codeword",
        "the trigger codewords `on_trig_inst` and `off_trig_inst` that"
            + " external triggers inject into the decode stream (§3.4)");

    String sink = "sink; `cost` is the handler cycles a call is charged";
    COMPONENTS.put(
        "region_counter",
        "Hot code regions: per dynamic branch, the application"
            + " instructions since the previous branch, keyed by the branch's pc (§3.5, Fig. 6 P1). "
            + sink);
    COMPONENTS.put(
        "method_counter",
        "Hot methods: invocations and backward branches per"
            + " method, named from the ELF symbols (§3.5, Fig. 6 P2). "
            + sink);
    COMPONENTS.put(
        "call_pair_counter",
        "Hot call pairs: per (caller, callee) (§3.5, Fig. 6" + " P3). " + sink);
    COMPONENTS.put(
        "path_counter",
        "Ball-Larus acyclic intraprocedural hot paths" + " (spec/profiles.md). " + sink);
    COMPONENTS.put(
        "burst_trace",
        "Burst traces and hot data streams (bursty tracing paper,"
            + " Section 5.2): `streams`, `min_length`, `max_length`, `coverage_pct`. "
            + sink);
    COMPONENTS.put(
        "bbv",
        "Basic block vectors per interval in SimPoint's `.bb` format"
            + " (phase-based remote profiling paper, Section 3.2): `buckets`, `interval`. "
            + sink);
    COMPONENTS.put(
        "rap_tree",
        "Range Adaptive Profiling: hot code, value and address ranges"
            + " in a RAP tree (`stream`, `epsilon_ppm`, `branching`, `range_bits`, `hot_ppm`,"
            + " `merge_ratio_pct`, `first_merge`, `exact`, `code`; spec/engine.md). Tagged "
            + sink);
    COMPONENTS.put(
        "value_profile",
        "The profiling co-processor's load value profile (Zilles"
            + " and Sohi, Section 3; spec/engine.md). Tagged "
            + sink);
    COMPONENTS.put(
        "edge_profile",
        "The profiling co-processor's edge profile (Zilles and Sohi;"
            + " spec/engine.md). Tagged "
            + sink);
    COMPONENTS.put(
        "sampled_value_profile",
        "An interrupt-sampled value profile, the"
            + " co-processor's baseline: `period`, `interrupt_cycles`, `min_invariance_pct`. Tagged "
            + sink);
    COMPONENTS.put(
        "watchpoint",
        "A store watchpoint over `address`..`address + length`"
            + " (DISE's classic utility). "
            + sink);
    String trigger =
        "trigger; every trigger takes `interval` (instructions) and `counter` (the"
            + " counter its codewords set); spec/sampling.md";
    COMPONENTS.put("exhaustive", "Samples every interval. " + trigger);
    COMPONENTS.put("periodic", "Samples `length` intervals every `period` (§3.4). " + trigger);
    COMPONENTS.put(
        "random", "Samples an interval with probability 1/`one_in`, seeded (§3.4). " + trigger);
    COMPONENTS.put(
        "phase_aware",
        "Phase-aware sampling after Sherwood et al.: a phase tracker"
            + " (`buckets`, `threshold`, `table`, `predictor`) and a daemon that samples one"
            + " representative interval per phase (`policy`: first, third, centroid, random). "
            + trigger);

    KEYWORDS.put(
        "null",
        "`null`: no conditional control, or no replacement: the instruction"
            + " goes on unimpeded and pays no penalty while the micro-ops still run (§3.3)");
    KEYWORDS.put(
        "call",
        "`call(sink, args...)`: a call into a profile sink from replacement"
            + " code; costs the sink's declared handler cycles (§3.5)");
    KEYWORDS.put(
        "import",
        "`import module;` or `import \"file.acf\";`: makes a library module's"
            + " or a file's names available (spec/acf-language.md section 5)");
    KEYWORDS.put(
        "use",
        "`use block(args);`: instantiates an `acf` block, activating its"
            + " productions in composition order (§3.5)");
    KEYWORDS.put(
        "acf",
        "`acf name(params) { ... }`: a named, parameterised ACF, an application"
            + " customization function (§3.5)");
    KEYWORDS.put(
        "sink",
        "`sink NAME = component(...)`: a profile sink bound to a runtime"
            + " component (spec/acf-language.md section 7)");
    KEYWORDS.put(
        "trigger",
        "`trigger NAME = component(...)`: a sampling trigger that injects"
            + " `on_trig_inst`/`off_trig_inst` (§3.4)");
    KEYWORDS.put(
        "counter",
        "`counter NAME(index = 0, width = 16, init = 0)`: an HPS counter"
            + " with its `zero` and sticky `overflow` flags (§3.3)");
    KEYWORDS.put(
        "register",
        "`register NAME = init`: an HPS register, the source of `set_N`" + " (§3.3, §3.4)");
    KEYWORDS.put("const", "`const NAME = expr`: a compile-time integer");
    KEYWORDS.put(
        "tag",
        "`tag(sink)`: tags the instruction for a profiling co-processor without"
            + " replacing it (Zilles and Sohi's decode-stage filter)");
    KEYWORDS.put(
        "delete",
        "`delete`: in a replacement sequence, says that dropping the original instruction"
            + " (leaving out `T.INSN`) is meant; without it the lost-instructions lint warns");
    KEYWORDS.put(
        "on_trig_inst",
        "The codeword a trigger injects to turn sampling on;"
            + " `T.OP == on_trig_inst -> set_0(HPS_R0), null` is equation (1) of §3.4");
    KEYWORDS.put(
        "off_trig_inst",
        "The codeword a trigger injects to turn sampling off;"
            + " `T.OP == off_trig_inst -> set_0(HPS_R1), null` is equation (2) of §3.4");
  }

  /** The documentation of {@code T.NAME} (any case), or empty. */
  static Optional<String> field(String name) {
    String key = name.toUpperCase(Locale.ROOT);
    String doc = FIELDS.get(key);
    if (doc == null) {
      return Optional.empty();
    }
    return Optional.of("**T." + key + "**: " + doc + ".\n\n" + FieldTime.of(key).hover + ".");
  }

  /**
   * When a {@code T.} field is known, which decides where it may be read: {@code brief} is what a
   * completion says, {@code hover} what a hover says.
   */
  enum FieldTime {
    INSN("the original instruction", "the original instruction"),
    STATIC(
        "static field (patterns, directives)",
        "static: known at decode, usable in patterns and as an instantiation directive (§3.1,"
            + " §3.5)"),
    DYNAMIC(
        "dynamic field (replacement code only)",
        "dynamic: exists only while the instruction executes, so only replacement code may read"
            + " it (spec/acf-language.md section 4.2)");

    final String brief;
    final String hover;

    FieldTime(String brief, String hover) {
      this.brief = brief;
      this.hover = hover;
    }

    /** The time of the field {@code key} (upper case, without {@code T.}). */
    static FieldTime of(String key) {
      if (key.equals("INSN")) {
        return INSN;
      }
      InstructionField f = InstructionField.byName(key);
      return f != null && f.isStatic() ? STATIC : DYNAMIC;
    }
  }

  static Map<String, String> fields() {
    return FIELDS;
  }

  static Optional<String> opClass(String name) {
    String doc = OPCLASSES.get(name.toLowerCase(Locale.ROOT));
    return doc == null
        ? Optional.empty()
        : Optional.of(
            "**" + name.toLowerCase(Locale.ROOT) + "**: opcode class (`T.OPCLASS`): " + doc + ".");
  }

  static Optional<String> component(String name) {
    String doc = COMPONENTS.get(name);
    return doc == null ? Optional.empty() : Optional.of("**" + name + "**: " + doc + ".");
  }

  static Optional<String> keyword(String word) {
    String doc = KEYWORDS.get(word.toLowerCase(Locale.ROOT));
    return doc == null ? Optional.empty() : Optional.of(doc + ".");
  }

  /** The papers' flag and micro-op forms: {@code zero_0}, {@code inc_1}, {@code set_0}. */
  static Optional<String> paperForm(String word) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(zero|overflow|inc|dec|set)_(\\d+)")
            .matcher(word.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return Optional.empty();
    }
    String n = m.group(2);
    String doc =
        switch (m.group(1)) {
          case "zero" -> "true while counter " + n + " is 0";
          case "overflow" ->
              "counter "
                  + n
                  + "'s sticky overflow flag: set when `inc` wraps from"
                  + " the maximum or `dec` from zero, cleared by `set`";
          case "inc" -> "increments counter " + n;
          case "dec" -> "decrements counter " + n;
          default -> "sets counter " + n + " from an HPS register or a constant";
        };
    String kind =
        m.group(1).equals("zero") || m.group(1).equals("overflow")
            ? "counter flag, read as it was before the instruction"
            : "micro-op (conditional control)";
    return Optional.of("**" + word + "**: " + kind + ": " + doc + " (§3.3).");
  }
}
