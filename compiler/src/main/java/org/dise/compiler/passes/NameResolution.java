package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Arg;
import org.dise.compiler.ast.CounterRef;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.MicroOp;
import org.dise.compiler.ast.Name;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.isa.InstructionTable;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedMicroOp;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Counter;
import org.dise.compiler.sem.HpsRegister;
import org.dise.runtime.dise.HardwareBudget;

/**
 * Pass "name-resolution": resolves every name (productions, replacements, constants, registers,
 * counters, sinks, triggers, imports, block parameters), instantiates {@code use}d blocks with
 * their arguments (checking the arguments' types), and builds the {@link CheckedProgram}. Values
 * that exist only at run time are kept as {@code Dynamic}/{@code Invalid} nodes for the passes
 * after it to report.
 */
public final class NameResolution {
  public static final String NAME = "name-resolution";

  /** The program, and ACFs checked but not active (blocks that no {@code use} instantiates). */
  public record Result(CheckedProgram program, List<CheckedAcf> checkedOnly) {}

  private static final Pattern HPS_REGISTER = Pattern.compile("(?i)hps_r([0-9]{1,9})");

  private final HardwareBudget budget;
  private final InstructionTable isa;
  private final Diagnostics diags;
  private final Set<String> mnemonics = new HashSet<>();
  private final Set<String> opClasses = new HashSet<>();

  private final Scope builtins = new Scope("builtins", null);
  private final Map<AcfFile, Scope> fileScopes = new IdentityHashMap<>();
  private final Set<Long> reservedCounters = new HashSet<>();
  private final Set<Long> reservedRegisters = new HashSet<>();
  private final Map<Integer, Span> declaredCounters = new HashMap<>();
  private final Map<Integer, Span> declaredRegisters = new HashMap<>();
  private final ConstantEvaluation constants;
  private final ComponentBinding componentBinding;
  private final BlockInstantiation blocks;
  private final ReplacementResolution replacements;
  private LoadedProgram loaded;
  private Out out = new Out();

  /** What active code has reached so far: the program under construction. */
  static final class Out {
    final Map<Integer, Counter> counters = new LinkedHashMap<>();
    final Map<Integer, HpsRegister> registers = new LinkedHashMap<>();
    final Map<String, Component> sinks = new LinkedHashMap<>();
    final Map<String, Component> triggers = new LinkedHashMap<>();
    final List<CheckedAcf> acfs = new ArrayList<>();
  }

  public NameResolution(HardwareBudget budget, InstructionTable isa, Diagnostics diags) {
    this.budget = budget;
    this.isa = isa;
    this.diags = diags;
    this.constants = new ConstantEvaluation(this);
    this.componentBinding = new ComponentBinding(this);
    this.blocks = new BlockInstantiation(this);
    this.replacements = new ReplacementResolution(this);
    for (String m : isa.mnemonics()) {
      mnemonics.add(m.toLowerCase(Locale.ROOT));
    }
    for (String c : isa.codewords()) {
      mnemonics.add(c.toLowerCase(Locale.ROOT));
    }
    for (String c : isa.opClasses()) {
      opClasses.add(c.toLowerCase(Locale.ROOT));
    }
    // Section 3.4: HPS_R0 holds 0 and HPS_R1 holds 1.
    builtins.put(
        "HPS_R0", new Scope.RegisterE(new HpsRegister(0, "HPS_R0", 0, Span.NONE), Span.NONE));
    builtins.put(
        "HPS_R1", new Scope.RegisterE(new HpsRegister(1, "HPS_R1", 1, Span.NONE), Span.NONE));
  }

  public Result run(LoadedProgram program) {
    this.loaded = program;
    for (AcfFile f : program.files()) {
      reserveIndices(f.items());
    }
    program.prelude().ifPresent(this::reserveIndicesOf);
    reservedRegisters.add(0L);
    reservedRegisters.add(1L);
    for (Entity e : builtins.entries.values()) {
      HpsRegister r = ((Scope.RegisterE) e).register();
      out.registers.put(r.index(), r);
    }

    AcfFile main = program.main();
    List<CheckedProduction> mainProductions = new ArrayList<>();
    out.acfs.add(null); // the main file's own productions come first
    Scope scope = fileScope(main, mainProductions);
    String mainName = baseName(main.source().name());
    out.acfs.set(0, new CheckedAcf(mainName, mainProductions, main.span()));
    if (mainProductions.isEmpty()) {
      out.acfs.remove(0);
    }
    Out real = out;

    // Blocks of the main file that nothing instantiates are still checked, with their defaults
    // or placeholder arguments, into a scratch program.
    List<CheckedAcf> checkedOnly = new ArrayList<>();
    for (Item item : main.items()) {
      if (item instanceof Item.AcfBlock b && !blocks.instantiated(b)) {
        out = new Out();
        blocks.instantiate(b, scope, List.of(), b.span(), true);
        checkedOnly.addAll(out.acfs);
      }
    }
    // Replacements of the main file that no production names are still resolved (into the
    // scratch program, so their sinks do not become the program's): a call of an undeclared sink
    // is reported whether or not a production uses the sequence yet.
    out = new Out();
    for (Item item : main.items()) {
      if (item instanceof Item.Replacement r
          && scope.lookup(r.name().key()) instanceof Scope.ReplE e
          && e.replacement() == r) {
        replacements.replacement(e);
      }
    }
    out = real;
    CheckedProgram checked =
        new CheckedProgram(
            budget,
            sortedByIndex(real.counters),
            sortedByIndex(real.registers),
            List.copyOf(real.sinks.values()),
            List.copyOf(real.triggers.values()),
            real.acfs);
    return new Result(checked, checkedOnly);
  }

  private static <T> List<T> sortedByIndex(Map<Integer, T> m) {
    List<T> out = new ArrayList<>();
    new TreeSet<>(m.keySet()).forEach(k -> out.add(m.get(k)));
    return out;
  }

  private static String baseName(String path) {
    String n = path.replace('\\', '/');
    n = n.substring(n.lastIndexOf('/') + 1);
    return n.endsWith(".acf") ? n.substring(0, n.length() - 4) : n;
  }

  // ------------------------------------------------------------------ index reservation

  private void reserveIndicesOf(AcfFile f) {
    reserveIndices(f.items());
  }

  /** Counter and register indices written as numbers are never auto-allocated to a name. */
  private void reserveIndices(List<Item> items) {
    for (Item item : items) {
      if (item instanceof Item.Production p) {
        reserveFlags(p.pattern());
        for (MicroOp m : p.control()) {
          if (m.counter() instanceof CounterRef.Index i) {
            reservedCounters.add(i.index());
          }
        }
      } else if (item instanceof Item.CounterDecl c) {
        for (Arg a : c.args()) {
          if (a.name().isPresent()
              && a.name().get().key().equals("index")
              && a.value() instanceof Expr.NumberLit n) {
            reservedCounters.add(n.value());
          }
        }
      } else if (item instanceof Item.RegisterDecl r) {
        Matcher m = HPS_REGISTER.matcher(r.name().text());
        if (m.matches()) {
          reservedRegisters.add(Long.parseLong(m.group(1)));
        }
      } else if (item instanceof Item.AcfBlock b) {
        reserveIndices(b.body());
      }
    }
  }

  private void reserveFlags(Expr e) {
    if (e instanceof Expr.FlagRef f) {
      if (f.counter() instanceof CounterRef.Index i) {
        reservedCounters.add(i.index());
      }
    } else if (e instanceof Expr.Paren p) {
      reserveFlags(p.inner());
    } else if (e instanceof Expr.Unary u) {
      reserveFlags(u.operand());
    } else if (e instanceof Expr.Binary b) {
      reserveFlags(b.left());
      reserveFlags(b.right());
    } else {
    }
  }

  private int allocate(Set<Long> reserved, Map<Integer, Span> declared) {
    for (int i = 0; ; i++) {
      if (!reserved.contains((long) i) && !declared.containsKey(i)) {
        return i;
      }
    }
  }

  // ------------------------------------------------------------------ scopes of files

  private Scope preludeScope() {
    Optional<AcfFile> prelude = loaded.prelude();
    if (prelude.isEmpty()) {
      return builtins;
    }
    Scope s = fileScopes.get(prelude.get());
    if (s == null) {
      s = fileScope(prelude.get(), null);
    }
    return s;
  }

  /**
   * The scope of a file's top level. {@code productions} receives its productions when the file is
   * the main one; an imported file's productions are not active.
   */
  private Scope fileScope(AcfFile file, List<CheckedProduction> productions) {
    Scope existing = fileScopes.get(file);
    if (existing != null) {
      return existing;
    }
    boolean isPrelude = loaded.prelude().isPresent() && loaded.prelude().get() == file;
    Scope imports =
        new Scope("imports of " + file.source().name(), isPrelude ? builtins : preludeScope());
    Map<String, String> origin = new HashMap<>();
    for (Map.Entry<Item.Import, AcfFile> e : loaded.importsOf(file).entrySet()) {
      Item.Import imp = e.getKey();
      Scope imported = fileScope(e.getValue(), null);
      if (imp.alias().isPresent()) {
        declare(imports, imp.alias().get(), new Scope.ModuleE(imported, imp.span()));
        continue;
      }
      for (Map.Entry<String, Entity> decl : imported.entries.entrySet()) {
        String from = origin.get(decl.getKey());
        Entity prior = imports.entries.get(decl.getKey());
        if (prior != null
            && prior != decl.getValue()
            && from != null
            && !from.equals(e.getValue().source().name())) {
          imports.put(
              spelling(imported, decl.getKey()),
              new Scope.AmbiguousE(List.of(prior.span(), decl.getValue().span()), imp.span()));
        } else {
          imports.put(spelling(imported, decl.getKey()), decl.getValue());
          origin.put(decl.getKey(), e.getValue().source().name());
        }
      }
    }
    Scope scope = new Scope(file.source().name(), imports);
    fileScopes.put(file, scope);
    boolean active = productions != null;
    declareItems(file.items(), scope, active, productions, "");
    return scope;
  }

  private static String spelling(Scope s, String key) {
    for (String n : s.visibleNames()) {
      if (n.toLowerCase(Locale.ROOT).equals(key)) {
        return n;
      }
    }
    return key;
  }

  private void declare(Scope scope, Name name, Entity e) {
    Entity prior = scope.entries.get(name.key());
    if (prior != null) {
      diags.error(
          name.span(),
          "`"
              + name.text()
              + "` is already declared"
              + (prior.span().isNone() ? "" : " at line " + prior.span().line()));
      return;
    }
    scope.put(name.text(), e);
  }

  // ------------------------------------------------------------------ items

  /**
   * Declares the items of a file or block instance: replacements and blocks first (productions may
   * name later ones, as the papers write P1 before R1), then the other declarations in order, then
   * productions and uses when {@code active}.
   */
  void declareItems(
      List<Item> items,
      Scope scope,
      boolean active,
      List<CheckedProduction> productions,
      String prefix) {
    for (Item item : items) {
      if (item instanceof Item.Replacement r) {
        declare(scope, r.name(), new Scope.ReplE(r, scope, r.span()));
      } else if (item instanceof Item.AcfBlock b) {
        blocks.checkParamTypes(b);
        declare(scope, b.name(), new Scope.BlockE(b, scope, b.span()));
      }
    }
    for (Item item : items) {
      if (item instanceof Item.ConstDecl c) {
        Long v = constant(c.value(), scope);
        declare(scope, c.name(), new Scope.ConstE(v == null ? 0 : v, c.span()));
      } else if (item instanceof Item.RegisterDecl r) {
        declareRegister(r, scope, active);
      } else if (item instanceof Item.CounterDecl c) {
        declareCounter(c, scope, active);
      } else if (item instanceof Item.SinkDecl s) {
        Component comp =
            componentBinding.component(s.name(), s.component(), s.args(), true, scope, prefix);
        declare(scope, s.name(), new Scope.SinkE(comp, s.span()));
        if (active) {
          out.sinks.putIfAbsent(comp.name(), comp);
        }
      } else if (item instanceof Item.TriggerDecl t) {
        Component comp =
            componentBinding.component(t.name(), t.component(), t.args(), false, scope, prefix);
        declare(scope, t.name(), new Scope.TriggerE(comp, t.span()));
        if (active) {
          out.triggers.putIfAbsent(comp.name(), comp);
        }
      } else if (item instanceof Item.Import imp) {
        if (scope.label.startsWith("block ")) {
          diags.error(imp.span(), "`import` belongs at the top level of a file");
        }
      }
    }
    if (!active) {
      return;
    }
    Map<String, Span> productionNames = new HashMap<>();
    for (Item item : items) {
      if (item instanceof Item.Production p) {
        Span prior = productionNames.putIfAbsent(p.name().key(), p.span());
        if (prior != null) {
          diags.warning(
              p.name().span(),
              "production name `"
                  + p.name().text()
                  + "` is used again (first at line "
                  + prior.line()
                  + ")",
              "production names are labels; distinct names make diagnostics and reports clearer");
        }
        productions.add(production(p, scope));
      } else if (item instanceof Item.Use u) {
        blocks.use(u, scope);
      }
    }
  }

  /**
   * Records that the declaration at {@code span} takes {@code what} {@code index}; an error at
   * {@code name} if another declaration took it first.
   */
  private void claim(Map<Integer, Span> declared, int index, Span span, String what, Name name) {
    Span prior = declared.putIfAbsent(index, span);
    if (prior != null && prior != span) {
      diags.error(
          name.span(),
          what
              + " "
              + index
              + " is declared twice (first at "
              + prior.file().name()
              + ":"
              + prior.line()
              + ")");
    }
  }

  private void declareRegister(Item.RegisterDecl r, Scope scope, boolean active) {
    Long init = r.init().map(e -> constant(e, scope)).orElse(0L);
    Matcher m = HPS_REGISTER.matcher(r.name().text());
    int index;
    if (m.matches()) {
      index = (int) Math.min(Integer.MAX_VALUE, Long.parseLong(m.group(1)));
    } else {
      index = allocate(reservedRegisters, declaredRegisters);
    }
    claim(declaredRegisters, index, r.span(), "HPS register", r.name());
    HpsRegister reg = new HpsRegister(index, r.name().text(), init == null ? 0 : init, r.span());
    declare(scope, r.name(), new Scope.RegisterE(reg, r.span()));
    if (active) {
      out.registers.put(index, reg);
    }
  }

  private void declareCounter(Item.CounterDecl c, Scope scope, boolean active) {
    Long index = null;
    long width = HardwareBudget.DEFAULT_COUNTER_WIDTH;
    long init = 0;
    Span initSpan = c.span();
    for (Arg a : c.args()) {
      if (a.name().isEmpty()) {
        diags.error(
            a.span(),
            "counter arguments are named",
            "write `index = N`, `width = BITS` or `init = VALUE`");
        continue;
      }
      Long v = constant(a.value(), scope);
      if (v == null) {
        continue;
      }
      switch (a.name().get().key()) {
        case "index" -> index = v;
        case "width" -> {
          width = v;
          if (v < 1 || v > budget.maxCounterWidth()) {
            diags.error(
                a.value().span(),
                "counter width " + v + " is outside 1.." + budget.maxCounterWidth() + " bits");
            width = HardwareBudget.DEFAULT_COUNTER_WIDTH;
          }
        }
        case "init" -> {
          init = v;
          initSpan = a.value().span();
        }
        default ->
            diags.error(
                a.name().get().span(),
                "unknown counter parameter `" + a.name().get().text() + "`",
                Suggest.didYouMean(a.name().get().text(), List.of("index", "width", "init")));
      }
    }
    if (init < 0 || width < 63 && init >= (1L << width)) {
      diags.error(
          initSpan,
          "initial value " + init + " does not fit a " + width + "-bit counter",
          "a counter holds 0.." + ((1L << width) - 1));
      init = 0;
    }
    int idx;
    if (index == null) {
      idx = allocate(reservedCounters, declaredCounters);
    } else if (index < 0) {
      diags.error(c.span(), "counter index " + index + " is negative");
      idx = 0;
    } else {
      idx = (int) Math.min(Integer.MAX_VALUE, index);
    }
    claim(declaredCounters, idx, c.span(), "counter", c.name());
    Counter counter = new Counter(idx, c.name().text(), (int) width, init, c.span());
    declare(scope, c.name(), new Scope.CounterE(counter, c.span()));
    if (active) {
      out.counters.put(idx, counter);
    }
  }

  /** Looks a name up, following {@code alias.name} into imported modules. */
  Entity lookupQualified(Name name, Scope scope) {
    Entity e = scope.lookup(name.key());
    if (e == null && name.text().contains(".")) {
      int dot = name.text().indexOf('.');
      Entity module = scope.lookup(name.key().substring(0, dot));
      if (module instanceof Scope.ModuleE m) {
        e = m.scope().entries.get(name.key().substring(dot + 1));
      }
    }
    if (e instanceof Scope.AmbiguousE a) {
      diags.error(
          name.span(),
          "`" + name.text() + "` is declared by more than one import",
          "import one of them with `as` and write `alias." + name.text() + "`");
      return null;
    }
    return e;
  }

  // ------------------------------------------------------------------ constants

  // ------------------------------------------------------------------ productions

  private CheckedProduction production(Item.Production p, Scope scope) {
    org.dise.compiler.sem.Pattern pattern = PatternResolver.resolve(this, p.pattern(), scope);
    List<CheckedMicroOp> control = new ArrayList<>();
    for (MicroOp m : p.control()) {
      control.add(microOp(m, scope));
    }
    Optional<CheckedReplacement> replacement = Optional.empty();
    if (p.replacement().isPresent()) {
      Name rn = p.replacement().get();
      Entity e = lookupQualified(rn, scope);
      if (e instanceof Scope.ReplE r) {
        replacement = Optional.of(replacements.replacement(r));
      } else if (e == null) {
        diags.error(
            rn.span(),
            "unknown replacement `" + rn.text() + "`",
            Suggest.didYouMean(rn.text(), scope.visibleNames(Scope.ReplE.class)));
      } else {
        diags.error(rn.span(), "`" + rn.text() + "` is " + e.what() + ", not a replacement");
      }
    }
    Optional<String> tag = p.tag().map(t -> replacements.sinkName(t, scope));
    return new CheckedProduction(p.name().text(), pattern, control, replacement, tag, p.span());
  }

  private CheckedMicroOp microOp(MicroOp m, Scope scope) {
    int counter = counter(m.counter(), scope);
    Optional<CheckedMicroOp.Source> source = Optional.empty();
    String written = m.kind().word() + "_" + counter;
    if (m.kind() == MicroOp.Kind.SET && m.source().isEmpty()) {
      diags.error(
          m.span(),
          "`set` needs a source",
          "write `" + written + "(HPS_R0)`: an HPS register or a constant");
    } else if (m.kind() != MicroOp.Kind.SET && m.source().isPresent()) {
      diags.error(
          m.source().get().span(),
          "`" + m.kind().word() + "` takes no source",
          "write `" + written + "`");
    } else if (m.source().isPresent()) {
      Expr src = m.source().get();
      if (src instanceof Expr.NameRef n) {
        Entity e = lookupQualified(n.name(), scope);
        if (e instanceof Scope.RegisterE r) {
          out.registers.putIfAbsent(r.register().index(), r.register());
          source =
              Optional.of(
                  new CheckedMicroOp.Source.Register(r.register().index(), r.register().name()));
        } else if (e instanceof Scope.ConstE c) {
          source = Optional.of(new CheckedMicroOp.Source.Constant(c.value()));
        } else if (e == null) {
          List<String> names = new ArrayList<>(scope.visibleNames(Scope.RegisterE.class));
          names.addAll(scope.visibleNames(Scope.ConstE.class));
          String hint = Suggest.didYouMean(n.name().text(), names);
          diags.error(
              n.span(),
              "unknown HPS register `" + n.name().text() + "`",
              hint != null ? hint : "declare it with `register " + n.name().text() + " = 0;`");
        } else {
          diags.error(
              n.span(),
              "`" + n.name().text() + "` is " + e.what() + ", not an HPS register or a constant");
        }
      } else {
        Long v = constant(src, scope);
        if (v != null) {
          source = Optional.of(new CheckedMicroOp.Source.Constant(v));
        }
      }
    }
    return new CheckedMicroOp(m.kind(), counter, source, m.span());
  }

  /** Resolves a counter reference to its index, activating it in the program. */
  int counter(CounterRef ref, Scope scope) {
    if (ref instanceof CounterRef.Index i) {
      return counterByIndex(i.index(), i.span()).index();
    }
    Name n = ((CounterRef.Named) ref).name();
    Entity e = lookupQualified(n, scope);
    if (e instanceof Scope.CounterE c) {
      out.counters.putIfAbsent(c.counter().index(), c.counter());
      return c.counter().index();
    }
    if (e == null) {
      diags.error(
          n.span(),
          "unknown counter `" + n.text() + "`",
          Suggest.didYouMean(n.text(), scope.visibleNames(Scope.CounterE.class)));
    } else {
      diags.error(n.span(), "`" + n.text() + "` is " + e.what() + ", not a counter");
    }
    return 0;
  }

  Counter counterByIndex(long index, Span span) {
    int idx = (int) Math.max(0, Math.min(Integer.MAX_VALUE, index));
    Counter c = out.counters.get(idx);
    if (c == null) {
      c = new Counter(idx, "", HardwareBudget.DEFAULT_COUNTER_WIDTH, 0, span);
      out.counters.put(idx, c);
    }
    return c;
  }

  // ------------------------------------------------------------------ patterns

  Set<String> mnemonics() {
    return mnemonics;
  }

  Set<String> opClasses() {
    return opClasses;
  }

  Diagnostics diags() {
    return diags;
  }

  /** Evaluates a constant expression; null (after reporting) when it is not one. */
  Long constant(Expr e, Scope scope) {
    return constants.evaluate(e, scope);
  }

  HardwareBudget budget() {
    return budget;
  }

  Scope builtins() {
    return builtins;
  }

  Out out() {
    return out;
  }

  boolean hasPrelude() {
    return loaded.prelude().isPresent();
  }

  static List<String> staticFieldNames() {
    return ReplacementResolution.staticFieldNames();
  }

  Entity lookup(Name name, Scope scope) {
    return lookupQualified(name, scope);
  }
}
