package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.runtime.elf.ProgramSymbols;

/**
 * Resolves the program symbols a production set names ({@code symbol(NAME)}, {@code
 * symbol_end(NAME)}) against the program it is about to run on: each becomes the constant address
 * it stands for, so the engines fold it like any other constant. Done when the program is loaded,
 * because addresses change with every build; a configuration keeps the names.
 */
public final class SymbolBinding {
  private SymbolBinding() {}

  /** Symbols the program does not have (or has ambiguously), one line each, all at once. */
  public static final class UnresolvedSymbolsException extends RuntimeException {
    private final List<String> problems;

    UnresolvedSymbolsException(List<String> problems) {
      super(String.join("\n", problems));
      this.problems = List.copyOf(problems);
    }

    /** One {@code origin: error: ...} line per symbol reference that could not be resolved. */
    public List<String> problems() {
      return problems;
    }
  }

  /**
   * {@code set} with every symbol resolved against {@code symbols} ({@code set} itself when it
   * names none). {@code program} names the program in messages.
   *
   * @throws UnresolvedSymbolsException listing every reference that cannot be resolved, each with
   *     the place in the ACF that names it
   */
  public static ProductionSet bind(ProductionSet set, ProgramSymbols symbols, String program) {
    List<SymbolRef> refs = set.symbols();
    if (refs.isEmpty()) {
      return set;
    }
    List<String> problems = new ArrayList<>();
    for (SymbolRef r : refs) {
      explain(r, symbols, program)
          .map(Unresolved::render)
          .filter(p -> !problems.contains(p))
          .ifPresent(problems::add);
    }
    if (!problems.isEmpty()) {
      throw new UnresolvedSymbolsException(problems);
    }
    return resolve(set, symbols);
  }

  /**
   * A binding that left some symbols for later ({@link #bindDeferring}): {@code set} with every
   * symbol the program has bound, and the pattern symbols it does not have yet, still symbolic in
   * {@code set}'s patterns ({@code late}, once per name, in the order first written).
   */
  public record Binding(ProductionSet set, List<SymbolRef> late) {
    public Binding {
      late = List.copyOf(late);
    }
  }

  /**
   * As {@link #bind}, for a dynamically linked program whose libraries may come later (dlopen): a
   * symbol that {@code symbols} does not have at all and that only patterns name stays symbolic, to
   * be bound when a library that defines it loads ({@link #resolveAvailable}); until then the
   * productions whose patterns name it match nothing (spec/emulator.md, "Symbols of libraries
   * opened later"). Everything else that does not resolve is refused as by {@link #bind}: an
   * ambiguous name, a {@code symbol_end} without a size, and a missing symbol in a replacement
   * sequence or a sink or trigger parameter (those are fixed when the engine is built).
   *
   * @throws UnresolvedSymbolsException listing every reference that cannot be resolved or deferred
   */
  public static Binding bindDeferring(ProductionSet set, ProgramSymbols symbols, String program) {
    List<SymbolRef> refs = set.symbols();
    if (refs.isEmpty()) {
      return new Binding(set, List.of());
    }
    java.util.Set<SymbolRef> inPatterns = new java.util.HashSet<>();
    for (Production p : set.productions()) {
      ProductionSet.symbolsOf(p.pattern(), inPatterns);
    }
    java.util.Set<SymbolRef> outside = new java.util.HashSet<>(refs);
    outside.removeAll(inPatterns);
    List<String> problems = new ArrayList<>();
    java.util.LinkedHashMap<String, SymbolRef> late = new java.util.LinkedHashMap<>();
    for (SymbolRef r : refs) {
      Optional<Unresolved> why = explain(r, symbols, program);
      if (why.isEmpty()) {
        continue;
      }
      if (absent(r, symbols) && !outside.contains(r)) {
        late.putIfAbsent(r.name(), r);
        continue;
      }
      String p = why.get().render();
      if (absent(r, symbols)) {
        p +=
            "\n  note: a symbol of a library the program opens later (dlopen) may be named in a"
                + " pattern only: it binds when the library loads";
      }
      if (!problems.contains(p)) {
        problems.add(p);
      }
    }
    if (!problems.isEmpty()) {
      throw new UnresolvedSymbolsException(problems);
    }
    return new Binding(resolveAvailable(set, symbols), List.copyOf(late.values()));
  }

  /**
   * Whether {@code symbols} has nothing at all of {@code ref}'s name (neither one nor several),
   * though it has symbols: what a library loaded later may still define.
   */
  public static boolean absent(SymbolRef ref, ProgramSymbols symbols) {
    return symbols.size() > 0
        && symbols.lookup(ref.name()).isEmpty()
        && symbols.candidates(ref.name()).isEmpty();
  }

  /**
   * {@code set} with every pattern symbol that {@code symbols} resolves now bound and the others
   * left symbolic: how an engine binds its late symbols when a library loads. Symbols outside the
   * patterns must be bound already ({@link #bindDeferring} refuses them otherwise).
   */
  public static ProductionSet resolveAvailable(ProductionSet set, ProgramSymbols symbols) {
    return set.symbols().isEmpty() ? set : resolve(set, symbols);
  }

  /** {@code set} with each symbol that resolves in {@code symbols} replaced by its address. */
  private static ProductionSet resolve(ProductionSet set, ProgramSymbols symbols) {
    List<Production> productions = new ArrayList<>();
    for (Production p : set.productions()) {
      productions.add(
          new Production(
              p.name(),
              p.acf(),
              bind(p.pattern(), symbols),
              p.control(),
              p.replacement(),
              p.tag()));
    }
    List<ReplacementSequence> sequences = new ArrayList<>();
    for (ReplacementSequence s : set.replacements()) {
      List<ReplacementInsn> body = new ArrayList<>();
      for (ReplacementInsn r : s.body()) {
        body.add(bind(r, symbols));
      }
      sequences.add(new ReplacementSequence(s.name(), body));
    }
    List<SinkBinding> sinks = new ArrayList<>();
    for (SinkBinding k : set.sinks()) {
      sinks.add(new SinkBinding(k.name(), k.component(), k.cost(), bind(k.params(), symbols)));
    }
    List<TriggerBinding> triggers = new ArrayList<>();
    for (TriggerBinding t : set.triggers()) {
      triggers.add(new TriggerBinding(t.name(), t.component(), bind(t.params(), symbols)));
    }
    return new ProductionSet(
        productions,
        sequences,
        set.counters(),
        set.hpsRegisters(),
        sinks,
        triggers,
        set.stallCycles(),
        set.budget());
  }

  /**
   * The problems resolving {@code set}'s symbols against {@code symbols} would raise, without
   * binding: what {@code acf check --program} reports.
   */
  public static List<String> check(ProductionSet set, ProgramSymbols symbols, String program) {
    try {
      bind(set, symbols, program);
      return List.of();
    } catch (UnresolvedSymbolsException e) {
      return e.problems();
    }
  }

  /** The address {@code ref} stands for in {@code symbols}, when it resolves. */
  public static Optional<Long> address(SymbolRef ref, ProgramSymbols symbols) {
    return symbols
        .lookup(ref.name())
        .filter(e -> !ref.end() || e.size() > 0)
        .map(e -> ref.end() ? e.end() : e.address());
  }

  /** Why a symbol reference does not resolve: a message and a hint (null when none). */
  public record Unresolved(SymbolRef ref, String message, String hint) {
    /** {@code origin: error: message}, and the hint on a second line. */
    public String render() {
      String at = ref.origin().isEmpty() ? "" : ref.origin() + ": ";
      return at + "error: " + message + (hint == null ? "" : "\n  hint: " + hint);
    }
  }

  /** Why {@code ref} does not resolve in {@code symbols}; empty when it does. */
  public static Optional<Unresolved> explain(
      SymbolRef ref, ProgramSymbols symbols, String program) {
    Optional<ProgramSymbols.Entry> e = symbols.lookup(ref.name());
    if (e.isPresent()) {
      if (ref.end() && e.get().size() == 0) {
        return Optional.of(
            new Unresolved(
                ref,
                "`"
                    + ref.name()
                    + "` has no size in "
                    + program
                    + "'s symbol table, so "
                    + ref.spelling()
                    + " is not known",
                "use symbol(" + ref.name() + ") and a length you know"));
      }
      return Optional.empty();
    }
    List<ProgramSymbols.Entry> several = symbols.candidates(ref.name());
    if (!several.isEmpty()) {
      List<String> where = several.stream().map(c -> String.format("0x%x", c.address())).toList();
      return Optional.of(
          new Unresolved(
              ref,
              program
                  + " has "
                  + several.size()
                  + " local symbols called `"
                  + ref.name()
                  + "` (at "
                  + String.join(", ", where)
                  + "), so "
                  + ref.spelling()
                  + " is ambiguous",
              "give the one you mean a unique name, or make it global"));
    }
    if (symbols.size() == 0) {
      return Optional.of(
          new Unresolved(
              ref,
              program + " has no symbol table, so " + ref.spelling() + " cannot be resolved",
              "build it without stripping (no -s)"));
    }
    String near = nearest(ref.name(), symbols);
    return Optional.of(
        new Unresolved(
            ref,
            program + " has no symbol `" + ref.name() + "`",
            near == null ? null : "did you mean `" + near + "`?"));
  }

  static PatternExpr bind(PatternExpr e, ProgramSymbols symbols) {
    if (e instanceof PatternExpr.SymbolAddr s) {
      // Left symbolic when absent: only bindDeferring lets one through (bind checked them all).
      return address(s.ref(), symbols).<PatternExpr>map(PatternExpr.Const::new).orElse(e);
    }
    if (e instanceof PatternExpr.Unary u) {
      return new PatternExpr.Unary(u.op(), bind(u.operand(), symbols));
    }
    if (e instanceof PatternExpr.Binary b) {
      return new PatternExpr.Binary(b.op(), bind(b.left(), symbols), bind(b.right(), symbols));
    }
    return e;
  }

  private static ReplacementInsn bind(ReplacementInsn r, ProgramSymbols symbols) {
    if (r instanceof ReplacementInsn.Insn i) {
      return new ReplacementInsn.Insn(
          i.op(),
          bind(i.rd(), symbols),
          bind(i.rs1(), symbols),
          bind(i.rs2(), symbols),
          bind(i.rs3(), symbols),
          bind(i.imm(), symbols),
          i.rm(),
          i.target());
    }
    if (r instanceof ReplacementInsn.LoadImmediate li) {
      return new ReplacementInsn.LoadImmediate(bind(li.rd(), symbols), bind(li.value(), symbols));
    }
    if (r instanceof ReplacementInsn.Call c) {
      List<ReplacementInsn.CallArg> args = new ArrayList<>();
      for (ReplacementInsn.CallArg a : c.args()) {
        args.add(new ReplacementInsn.CallArg(bind(a.slot(), symbols), a.insn()));
      }
      return new ReplacementInsn.Call(c.sink(), args, c.result()); // the same NONE: returns()
    }
    return r;
  }

  /** Parameters with every symbol replaced by its address, in decimal as numbers are. */
  private static java.util.Map<String, String> bind(
      java.util.Map<String, String> params, ProgramSymbols symbols) {
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    params.forEach(
        (k, v) ->
            out.put(
                k,
                SymbolRef.fromParam(v)
                    .map(r -> Long.toString(address(r, symbols).orElseThrow()))
                    .orElse(v)));
    return out;
  }

  private static Slot bind(Slot s, ProgramSymbols symbols) {
    return s.kind() == Slot.Kind.SYMBOL
        ? Slot.bound(address(s.symbol(), symbols).orElseThrow(), s.symbol())
        : s;
  }

  /** The closest name by edit distance, when it is close enough to be a likely typo. */
  private static String nearest(String name, ProgramSymbols symbols) {
    int limit = Math.max(1, Math.min(3, name.length() / 3));
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String n : symbols.names()) {
      if (Math.abs(n.length() - name.length()) > limit) {
        continue;
      }
      int d = distance(name, n);
      if (d <= limit && (d < bestDistance || d == bestDistance && n.compareTo(best) < 0)) {
        best = n;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
