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
import org.dise.compiler.Budget;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Arg;
import org.dise.compiler.ast.CounterRef;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.MicroOp;
import org.dise.compiler.ast.Name;
import org.dise.compiler.ast.Operand;
import org.dise.compiler.ast.Param;
import org.dise.compiler.ast.ReplStmt;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.isa.InstructionTable;
import org.dise.compiler.isa.Registers;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedMicroOp;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Components;
import org.dise.compiler.sem.Counter;
import org.dise.compiler.sem.HpsRegister;
import org.dise.compiler.sem.InstructionField;
import org.dise.compiler.sem.Value;

/**
 * Pass "name-resolution": resolves every name (productions, replacements, constants, registers,
 * counters, sinks, triggers, imports, block parameters), instantiates {@code use}d blocks with
 * their arguments (checking the arguments' types), and builds the {@link CheckedProgram}.
 * Values that exist only at run time are kept as {@code Dynamic}/{@code Invalid} nodes for the
 * passes after it to report.
 */
public final class NameResolution {
  public static final String NAME = "name-resolution";

  /** The program, and ACFs checked but not active (blocks that no {@code use} instantiates). */
  public record Result(CheckedProgram program, List<CheckedAcf> checkedOnly) {}

  /** Parameter types of {@code acf} blocks. */
  static final List<String> PARAM_TYPES =
      List.of("int", "bool", "counter", "register", "sink", "trigger", "opclass", "op");

  private static final Pattern HPS_REGISTER = Pattern.compile("(?i)hps_r([0-9]{1,9})");
  private static final Pattern DISE_REGISTER = Pattern.compile("\\$dr([0-9]{1,9})");
  private static final int MAX_INSTANCE_DEPTH = 16;

  private final Budget budget;
  private final InstructionTable isa;
  private final Components components;
  private final Diagnostics diags;
  private final Set<String> mnemonics = new HashSet<>();
  private final Set<String> opClasses = new HashSet<>();

  private final Scope builtins = new Scope("builtins", null);
  private final Map<AcfFile, Scope> fileScopes = new IdentityHashMap<>();
  private final Map<Scope, Map<Item.Replacement, CheckedReplacement>> replacements =
      new IdentityHashMap<>();
  private final Set<Long> reservedCounters = new HashSet<>();
  private final Set<Long> reservedRegisters = new HashSet<>();
  private final Map<Integer, Span> declaredCounters = new HashMap<>();
  private final Map<Integer, Span> declaredRegisters = new HashMap<>();
  private final Map<String, Integer> instanceCounts = new HashMap<>();
  private final Set<String> componentNames = new HashSet<>();
  private LoadedProgram loaded;
  private Out out = new Out();
  private int depth;

  /** What active code has reached so far: the program under construction. */
  private static final class Out {
    final Map<Integer, Counter> counters = new LinkedHashMap<>();
    final Map<Integer, HpsRegister> registers = new LinkedHashMap<>();
    final Map<String, Component> sinks = new LinkedHashMap<>();
    final Map<String, Component> triggers = new LinkedHashMap<>();
    final List<CheckedAcf> acfs = new ArrayList<>();
  }

  public NameResolution(Budget budget, InstructionTable isa, Components components,
      Diagnostics diags) {
    this.budget = budget;
    this.isa = isa;
    this.components = components;
    this.diags = diags;
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
    builtins.put("HPS_R0", new Scope.RegisterE(new HpsRegister(0, "HPS_R0", 0, Span.NONE),
        Span.NONE));
    builtins.put("HPS_R1", new Scope.RegisterE(new HpsRegister(1, "HPS_R1", 1, Span.NONE),
        Span.NONE));
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
      if (item instanceof Item.AcfBlock b && !instanceCounts.containsKey(blockKey(b))) {
        out = new Out();
        instantiate(b, scope, List.of(), b.span(), true);
        checkedOnly.addAll(out.acfs);
      }
    }
    out = real;
    CheckedProgram checked = new CheckedProgram(budget,
        sortedByIndex(real.counters), sortedByIndex(real.registers),
        List.copyOf(real.sinks.values()), List.copyOf(real.triggers.values()), real.acfs);
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

  private static String blockKey(Item.AcfBlock b) {
    return b.span().file().name() + "@" + b.span().start();
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
          if (a.name().isPresent() && a.name().get().key().equals("index")
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
   * The scope of a file's top level. {@code productions} receives its productions when the file
   * is the main one; an imported file's productions are not active.
   */
  private Scope fileScope(AcfFile file, List<CheckedProduction> productions) {
    Scope existing = fileScopes.get(file);
    if (existing != null) {
      return existing;
    }
    boolean isPrelude = loaded.prelude().isPresent() && loaded.prelude().get() == file;
    Scope imports = new Scope("imports of " + file.source().name(),
        isPrelude ? builtins : preludeScope());
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
        if (prior != null && prior != decl.getValue() && from != null
            && !from.equals(e.getValue().source().name())) {
          imports.put(spelling(imported, decl.getKey()), new Scope.AmbiguousE(
              List.of(prior.span(), decl.getValue().span()), imp.span()));
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
      diags.error(name.span(), "`" + name.text() + "` is already declared"
          + (prior.span().isNone() ? "" : " at line " + prior.span().line()));
      return;
    }
    scope.put(name.text(), e);
  }

  // ------------------------------------------------------------------ items

  /**
   * Declares the items of a file or block instance: replacements and blocks first (productions
   * may name later ones, as the papers write P1 before R1), then the other declarations in
   * order, then productions and uses when {@code active}.
   */
  private void declareItems(List<Item> items, Scope scope, boolean active,
      List<CheckedProduction> productions, String prefix) {
    for (Item item : items) {
      if (item instanceof Item.Replacement r) {
        declare(scope, r.name(), new Scope.ReplE(r, scope, r.span()));
      } else if (item instanceof Item.AcfBlock b) {
        checkParamTypes(b);
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
        Component comp = component(s.name(), s.component(), s.args(), true, scope, prefix);
        declare(scope, s.name(), new Scope.SinkE(comp, s.span()));
        if (active) {
          out.sinks.putIfAbsent(comp.name(), comp);
        }
      } else if (item instanceof Item.TriggerDecl t) {
        Component comp = component(t.name(), t.component(), t.args(), false, scope, prefix);
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
          diags.warning(p.name().span(), "production name `" + p.name().text()
              + "` is used again (first at line " + prior.line() + ")",
              "production names are labels; distinct names make diagnostics and reports clearer");
        }
        productions.add(production(p, scope));
      } else if (item instanceof Item.Use u) {
        use(u, scope);
      }
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
    Span prior = declaredRegisters.putIfAbsent(index, r.span());
    if (prior != null && prior != r.span()) {
      diags.error(r.name().span(), "HPS register " + index + " is declared twice (first at "
          + prior.file().name() + ":" + prior.line() + ")");
    }
    HpsRegister reg = new HpsRegister(index, r.name().text(), init == null ? 0 : init, r.span());
    declare(scope, r.name(), new Scope.RegisterE(reg, r.span()));
    if (active) {
      out.registers.put(index, reg);
    }
  }

  private void declareCounter(Item.CounterDecl c, Scope scope, boolean active) {
    Long index = null;
    long width = budget.defaultCounterWidth();
    long init = 0;
    Span initSpan = c.span();
    for (Arg a : c.args()) {
      if (a.name().isEmpty()) {
        diags.error(a.span(), "counter arguments are named",
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
            diags.error(a.value().span(), "counter width " + v + " is outside 1.."
                + budget.maxCounterWidth() + " bits");
            width = budget.defaultCounterWidth();
          }
        }
        case "init" -> {
          init = v;
          initSpan = a.value().span();
        }
        default -> diags.error(a.name().get().span(), "unknown counter parameter `"
            + a.name().get().text() + "`", Suggest.didYouMean(a.name().get().text(),
            List.of("index", "width", "init")));
      }
    }
    if (init < 0 || width < 63 && init >= (1L << width)) {
      diags.error(initSpan, "initial value " + init + " does not fit a " + width
          + "-bit counter", "a counter holds 0.." + ((1L << width) - 1));
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
    Span prior = declaredCounters.putIfAbsent(idx, c.span());
    if (prior != null && prior != c.span()) {
      diags.error(c.name().span(), "counter " + idx + " is declared twice (first at "
          + prior.file().name() + ":" + prior.line() + ")");
    }
    Counter counter = new Counter(idx, c.name().text(), (int) width, init, c.span());
    declare(scope, c.name(), new Scope.CounterE(counter, c.span()));
    if (active) {
      out.counters.put(idx, counter);
    }
  }

  private Component component(Name name, Name kind, List<Arg> args, boolean isSink, Scope scope,
      String prefix) {
    String what = isSink ? "sink" : "trigger";
    Optional<Components.Spec> spec = components.find(kind.key())
        .filter(s -> s.isSink() == isSink);
    Map<String, Value> params = new LinkedHashMap<>();
    if (spec.isEmpty()) {
      List<String> candidates = new ArrayList<>();
      components.all().values().stream().filter(s -> s.isSink() == isSink)
          .forEach(s -> candidates.add(s.name()));
      diags.error(kind.span(), "unknown " + what + " component `" + kind.text() + "`",
          Suggest.didYouMean(kind.text(), candidates));
    } else {
      for (Arg a : args) {
        if (a.name().isEmpty()) {
          diags.error(a.span(), what + " parameters are named", "write `name = value`");
          continue;
        }
        Name pn = a.name().get();
        Components.Type type = spec.get().params().get(pn.key());
        if (type == null) {
          diags.error(pn.span(), "`" + kind.text() + "` has no parameter `" + pn.text() + "`",
              Suggest.didYouMean(pn.text(), spec.get().params().keySet()));
          continue;
        }
        if (params.containsKey(pn.key())) {
          diags.error(pn.span(), "parameter `" + pn.text() + "` is given twice");
          continue;
        }
        Value v = componentValue(a.value(), type, scope, pn.text());
        Long min = spec.get().minimums().get(pn.key());
        if (v instanceof Value.Int i && min != null && i.value() < min) {
          diags.error(a.value().span(), "parameter `" + pn.text() + "` of `" + kind.text()
              + "` must be at least " + min + ", got " + i.value());
          continue;
        }
        if (v != null) {
          params.put(pn.key(), v);
        }
      }
    }
    String unique = prefix.isEmpty() ? name.text() : prefix + "." + name.text();
    String candidate = unique;
    for (int i = 2; !componentNames.add(candidate.toLowerCase(Locale.ROOT)); i++) {
      candidate = unique + "#" + i;
    }
    return new Component(candidate, kind.key(), params, name.span().to(kind.span()));
  }

  private Value componentValue(Expr e, Components.Type type, Scope scope, String param) {
    switch (type) {
      case STRING -> {
        if (e instanceof Expr.StringLit s) {
          return new Value.Str(s.value());
        }
        diags.error(e.span(), "parameter `" + param + "` takes a string");
        return null;
      }
      case BOOL -> {
        if (e instanceof Expr.BoolLit b) {
          return new Value.Bool(b.value());
        }
        diags.error(e.span(), "parameter `" + param + "` takes `true` or `false`");
        return null;
      }
      case NAME -> {
        if (e instanceof Expr.NameRef n) {
          Entity ent = scope.lookup(n.name().key());
          if (ent instanceof Scope.SinkE s) {
            return new Value.Symbol(s.component().name());
          }
          return new Value.Symbol(n.name().text());
        }
        if (e instanceof Expr.StringLit s) {
          return new Value.Symbol(s.value());
        }
        diags.error(e.span(), "parameter `" + param + "` takes a name");
        return null;
      }
      default -> {
        if (e instanceof Expr.StringLit) {
          diags.error(e.span(), "parameter `" + param + "` takes a number, not a string");
          return null;
        }
        // An address of the program (watchpoint(address = symbol(x))): resolved at load.
        if (e instanceof Expr.SymbolAddr y) {
          return new Value.Address(y.symbol(), y.end(), y.span());
        }
        if (e instanceof Expr.NameRef n
            && lookupQualified(n.name(), scope) instanceof Scope.SymbolE y) {
          return new Value.Address(y.symbol(), y.end(), y.span());
        }
        Long v = constant(e, scope);
        return v == null ? null : new Value.Int(v);
      }
    }
  }

  // ------------------------------------------------------------------ blocks and uses

  private void checkParamTypes(Item.AcfBlock b) {
    Set<String> seen = new HashSet<>();
    for (Param p : b.params()) {
      if (!PARAM_TYPES.contains(p.type().key())) {
        diags.error(p.type().span(), "unknown parameter type `" + p.type().text() + "`",
            Suggest.didYouMean(p.type().text(), PARAM_TYPES) != null
                ? Suggest.didYouMean(p.type().text(), PARAM_TYPES)
                : "types are " + String.join(", ", PARAM_TYPES));
      }
      if (!seen.add(p.name().key())) {
        diags.error(p.name().span(), "parameter `" + p.name().text() + "` is declared twice");
      }
    }
  }

  private void use(Item.Use u, Scope scope) {
    Entity e = lookupQualified(u.target(), scope);
    if (e == null) {
      diags.error(u.target().span(), "unknown ACF block `" + u.target().text() + "`",
          Suggest.didYouMean(u.target().text(), scope.visibleNames(Scope.BlockE.class)));
      return;
    }
    if (!(e instanceof Scope.BlockE b)) {
      diags.error(u.target().span(), "`" + u.target().text() + "` is " + e.what()
          + ", not an ACF block");
      return;
    }
    instantiate(b.block(), b.definedIn(), u.args(), u.span(), false, scope);
  }

  private void instantiate(Item.AcfBlock b, Scope definedIn, List<Arg> args, Span at,
      boolean placeholders) {
    instantiate(b, definedIn, args, at, placeholders, definedIn);
  }

  /** Creates one instance of a block: its declarations fresh, its productions one new ACF. */
  private void instantiate(Item.AcfBlock b, Scope definedIn, List<Arg> args, Span at,
      boolean placeholders, Scope caller) {
    if (depth >= MAX_INSTANCE_DEPTH) {
      diags.error(at, "ACF block `" + b.name().text() + "` instantiates itself (nesting deeper than "
          + MAX_INSTANCE_DEPTH + ")");
      return;
    }
    int n = instanceCounts.merge(blockKey(b), 1, Integer::sum);
    String instanceName = n == 1 ? b.name().text() : b.name().text() + "#" + n;
    Scope inst = new Scope("block " + instanceName, definedIn);
    bindParams(b, args, at, caller, inst, placeholders);
    int position = out.acfs.size();
    out.acfs.add(null);
    List<CheckedProduction> productions = new ArrayList<>();
    depth++;
    try {
      declareItems(b.body(), inst, true, productions, instanceName);
    } finally {
      depth--;
    }
    out.acfs.set(position, new CheckedAcf(instanceName, productions, at));
  }

  private void bindParams(Item.AcfBlock b, List<Arg> args, Span at, Scope caller, Scope inst,
      boolean placeholders) {
    Map<String, Arg> given = new LinkedHashMap<>();
    int positional = 0;
    boolean named = false;
    for (Arg a : args) {
      if (a.name().isPresent()) {
        named = true;
        Name pn = a.name().get();
        boolean known = b.params().stream().anyMatch(p -> p.name().key().equals(pn.key()));
        if (!known) {
          List<String> names = new ArrayList<>();
          b.params().forEach(p -> names.add(p.name().text()));
          diags.error(pn.span(), "`" + b.name().text() + "` has no parameter `" + pn.text() + "`",
              Suggest.didYouMean(pn.text(), names));
        } else if (given.putIfAbsent(pn.key(), a) != null) {
          diags.error(pn.span(), "parameter `" + pn.text() + "` is given twice");
        }
      } else if (named) {
        diags.error(a.span(), "positional arguments come before named ones");
      } else if (positional >= b.params().size()) {
        diags.error(a.span(), "`" + b.name().text() + "` takes " + b.params().size()
            + " argument" + (b.params().size() == 1 ? "" : "s"));
      } else {
        Param p = b.params().get(positional++);
        given.put(p.name().key(), a);
      }
    }
    for (Param p : b.params()) {
      Arg a = given.get(p.name().key());
      Entity value;
      if (a != null) {
        value = argument(a.value(), p, caller);
        if (value == null) {
          value = placeholder(p); // reported; a stand-in keeps the body from echoing the error
        }
      } else if (p.defaultValue().isPresent()) {
        value = argument(p.defaultValue().get(), p, inst.parent);
        if (value == null) {
          value = placeholder(p);
        }
      } else if (placeholders) {
        value = placeholder(p);
      } else {
        diags.error(at, "missing argument `" + p.name().text() + "` of `" + b.name().text()
            + "`", "it has no default; write `" + p.name().text() + " = ...`");
        value = placeholder(p);
      }
      if (value != null) {
        inst.put(p.name().text(), value);
      }
    }
  }

  private Entity placeholder(Param p) {
    Span s = p.span();
    return switch (p.type().key()) {
      case "bool" -> new Scope.BoolE(false, s);
      case "counter" -> new Scope.CounterE(new Counter(0, p.name().text(),
          budget.defaultCounterWidth(), 0, s), s);
      case "register" -> builtins.lookup("hps_r0");
      case "sink" -> new Scope.SinkE(new Component(p.name().text(), "placeholder", Map.of(), s), s);
      case "trigger" -> new Scope.TriggerE(
          new Component(p.name().text(), "placeholder", Map.of(), s), s);
      case "opclass" -> new Scope.OpClassE("alu", s);
      case "op" -> new Scope.OpE("nop", s);
      default -> new Scope.ConstE(0, s);
    };
  }

  /** Evaluates an argument in the caller's scope as a value of the parameter's type. */
  private Entity argument(Expr e, Param p, Scope caller) {
    String type = p.type().key();
    Span s = e.span();
    String expected = "parameter `" + p.name().text() + "` is of type `" + type + "`";
    if (e instanceof Expr.StringLit && PARAM_TYPES.contains(type)) {
      diags.error(s, expected + ", not a string");
      return null;
    }
    switch (type) {
      case "int" -> {
        // An address of the program: passed on symbolically, resolved when it is loaded.
        Expr bare = e;
        while (bare instanceof Expr.Paren p2) {
          bare = p2.inner();
        }
        if (bare instanceof Expr.SymbolAddr y) {
          return new Scope.SymbolE(y.symbol(), y.end(), y.span());
        }
        if (bare instanceof Expr.NameRef n
            && lookupQualified(n.name(), caller) instanceof Scope.SymbolE y) {
          return y;
        }
        Long v = constant(e, caller);
        return v == null ? null : new Scope.ConstE(v, s);
      }
      case "bool" -> {
        if (e instanceof Expr.BoolLit b) {
          return new Scope.BoolE(b.value(), s);
        }
        if (e instanceof Expr.NameRef n && caller.lookup(n.name().key()) instanceof Scope.BoolE b) {
          return b;
        }
        diags.error(s, expected + "; write `true` or `false`");
        return null;
      }
      case "counter" -> {
        if (e instanceof Expr.NumberLit n) {
          return new Scope.CounterE(counterByIndex(n.value(), s), s);
        }
        return entityOf(e, caller, Scope.CounterE.class, expected);
      }
      case "register" -> {
        return entityOf(e, caller, Scope.RegisterE.class, expected);
      }
      case "sink" -> {
        return entityOf(e, caller, Scope.SinkE.class, expected);
      }
      case "trigger" -> {
        return entityOf(e, caller, Scope.TriggerE.class, expected);
      }
      case "opclass" -> {
        if (e instanceof Expr.NameRef n) {
          Entity ent = caller.lookup(n.name().key());
          if (ent instanceof Scope.OpClassE) {
            return ent;
          }
          if (opClasses.contains(n.name().key())) {
            return new Scope.OpClassE(n.name().key(), s);
          }
          diags.error(s, "unknown opcode class `" + n.name().text() + "`",
              Suggest.didYouMean(n.name().text(), opClasses));
          return null;
        }
        diags.error(s, expected);
        return null;
      }
      case "op" -> {
        if (e instanceof Expr.NameRef n) {
          Entity ent = caller.lookup(n.name().key());
          if (ent instanceof Scope.OpE) {
            return ent;
          }
          if (mnemonics.contains(n.name().key())) {
            return new Scope.OpE(n.name().key(), s);
          }
          diags.error(s, "unknown instruction `" + n.name().text() + "`",
              Suggest.didYouMean(n.name().text(), mnemonics));
          return null;
        }
        diags.error(s, expected);
        return null;
      }
      default -> {
        return null; // the unknown type was reported at the parameter
      }
    }
  }

  private Entity entityOf(Expr e, Scope scope, Class<? extends Entity> kind, String expected) {
    if (e instanceof Expr.NameRef n) {
      Entity ent = lookupQualified(n.name(), scope);
      if (kind.isInstance(ent)) {
        return ent;
      }
      if (ent == null) {
        diags.error(e.span(), "unknown name `" + n.name().text() + "`",
            Suggest.didYouMean(n.name().text(), scope.visibleNames(kind)));
      } else {
        diags.error(e.span(), expected + ", but `" + n.name().text() + "` is " + ent.what());
      }
      return null;
    }
    diags.error(e.span(), expected);
    return null;
  }

  /** Looks a name up, following {@code alias.name} into imported modules. */
  private Entity lookupQualified(Name name, Scope scope) {
    Entity e = scope.lookup(name.key());
    if (e == null && name.text().contains(".")) {
      int dot = name.text().indexOf('.');
      Entity module = scope.lookup(name.key().substring(0, dot));
      if (module instanceof Scope.ModuleE m) {
        e = m.scope().entries.get(name.key().substring(dot + 1));
      }
    }
    if (e instanceof Scope.AmbiguousE a) {
      diags.error(name.span(), "`" + name.text() + "` is declared by more than one import",
          "import one of them with `as` and write `alias." + name.text() + "`");
      return null;
    }
    return e;
  }

  // ------------------------------------------------------------------ constants

  /** Evaluates a constant expression; null (after reporting) when it is not one. */
  Long constant(Expr e, Scope scope) {
    if (e instanceof Expr.NumberLit n) {
      return n.value();
    } else if (e instanceof Expr.BoolLit b) {
      return b.value() ? 1L : 0L;
    } else if (e instanceof Expr.Paren p) {
      return constant(p.inner(), scope);
    } else if (e instanceof Expr.NameRef n) {
      Entity ent = lookupQualified(n.name(), scope);
      if (ent instanceof Scope.ConstE c) {
        return c.value();
      }
      if (ent instanceof Scope.BoolE b) {
        return b.value() ? 1L : 0L;
      }
      if (ent instanceof Scope.SymbolE) {
        diags.error(n.span(), "`" + n.name().text() + "` is a program symbol's address, known"
            + " only when the program is loaded, so it is not a constant",
            "use it directly in a pattern or as a replacement operand, not in arithmetic"
                + " on constants");
        return null;
      }
      if (ent == null) {
        diags.error(n.span(), "unknown constant `" + n.name().text() + "`",
            Suggest.didYouMean(n.name().text(), scope.visibleNames(Scope.ConstE.class)));
      } else {
        diags.error(n.span(), "`" + n.name().text() + "` is " + ent.what()
            + ", not a constant");
      }
      return null;
    } else if (e instanceof Expr.Unary u) {
      Long v = constant(u.operand(), scope);
      if (v == null) {
        return null;
      }
      return switch (u.op()) {
        case NEG -> -v;
        case COMPLEMENT -> ~v;
        case NOT -> v == 0 ? 1L : 0L;
      };
    } else if (e instanceof Expr.Binary b) {
      Long l = constant(b.left(), scope);
      Long r = constant(b.right(), scope);
      if (l == null || r == null) {
        return null;
      }
      if ((b.op() == Expr.BinaryOp.DIV || b.op() == Expr.BinaryOp.REM) && r == 0) {
        diags.error(b.right().span(), "division by zero in a constant");
        return null;
      }
      return switch (b.op()) {
        case MUL -> l * r;
        case DIV -> l / r;
        case REM -> l % r;
        case ADD -> l + r;
        case SUB -> l - r;
        case SHL -> l << r;
        case SHR -> l >> r;
        case BIT_AND -> l & r;
        case BIT_XOR -> l ^ r;
        case BIT_OR -> l | r;
        case LT -> l < r ? 1L : 0L;
        case LE -> l <= r ? 1L : 0L;
        case GT -> l > r ? 1L : 0L;
        case GE -> l >= r ? 1L : 0L;
        case EQ -> l.equals(r) ? 1L : 0L;
        case NE -> !l.equals(r) ? 1L : 0L;
        case AND -> l != 0 && r != 0 ? 1L : 0L;
        case OR -> l != 0 || r != 0 ? 1L : 0L;
      };
    } else if (e instanceof Expr.SymbolAddr y) {
      diags.error(e.span(), "`" + org.dise.compiler.format.Formatter.symbolAddr(y.symbol(),
              y.end()) + "` is known only when the program is loaded, so it is not a constant",
          "write it where it is used: in a pattern or as a replacement operand");
      return null;
    } else {
      diags.error(e.span(), "not a constant", "constants are numbers, `true`, `false`, "
          + "other constants, and arithmetic on them");
      return null;
    }
  }

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
        replacement = Optional.of(replacement(r));
      } else if (e == null) {
        diags.error(rn.span(), "unknown replacement `" + rn.text() + "`",
            Suggest.didYouMean(rn.text(), scope.visibleNames(Scope.ReplE.class)));
      } else {
        diags.error(rn.span(), "`" + rn.text() + "` is " + e.what() + ", not a replacement");
      }
    }
    Optional<String> tag = p.tag().map(t -> sinkName(t, scope));
    return new CheckedProduction(p.name().text(), pattern, control, replacement, tag, p.span());
  }

  private CheckedMicroOp microOp(MicroOp m, Scope scope) {
    int counter = counter(m.counter(), scope);
    Optional<CheckedMicroOp.Source> source = Optional.empty();
    String written = m.kind().word() + "_" + counter;
    if (m.kind() == MicroOp.Kind.SET && m.source().isEmpty()) {
      diags.error(m.span(), "`set` needs a source", "write `" + written
          + "(HPS_R0)`: an HPS register or a constant");
    } else if (m.kind() != MicroOp.Kind.SET && m.source().isPresent()) {
      diags.error(m.source().get().span(), "`" + m.kind().word() + "` takes no source",
          "write `" + written + "`");
    } else if (m.source().isPresent()) {
      Expr src = m.source().get();
      if (src instanceof Expr.NameRef n) {
        Entity e = lookupQualified(n.name(), scope);
        if (e instanceof Scope.RegisterE r) {
          out.registers.putIfAbsent(r.register().index(), r.register());
          source = Optional.of(new CheckedMicroOp.Source.Register(
              r.register().index(), r.register().name()));
        } else if (e instanceof Scope.ConstE c) {
          source = Optional.of(new CheckedMicroOp.Source.Constant(c.value()));
        } else if (e == null) {
          List<String> names = new ArrayList<>(scope.visibleNames(Scope.RegisterE.class));
          names.addAll(scope.visibleNames(Scope.ConstE.class));
          String hint = Suggest.didYouMean(n.name().text(), names);
          diags.error(n.span(), "unknown HPS register `" + n.name().text() + "`",
              hint != null ? hint : "declare it with `register " + n.name().text() + " = 0;`");
        } else {
          diags.error(n.span(), "`" + n.name().text() + "` is " + e.what()
              + ", not an HPS register or a constant");
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
      diags.error(n.span(), "unknown counter `" + n.text() + "`",
          Suggest.didYouMean(n.text(), scope.visibleNames(Scope.CounterE.class)));
    } else {
      diags.error(n.span(), "`" + n.text() + "` is " + e.what() + ", not a counter");
    }
    return 0;
  }

  private Counter counterByIndex(long index, Span span) {
    int idx = (int) Math.max(0, Math.min(Integer.MAX_VALUE, index));
    Counter c = out.counters.get(idx);
    if (c == null) {
      c = new Counter(idx, "", budget.defaultCounterWidth(), 0, span);
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

  Entity lookup(Name name, Scope scope) {
    return lookupQualified(name, scope);
  }

  // ------------------------------------------------------------------ replacements

  private CheckedReplacement replacement(Scope.ReplE r) {
    Map<Item.Replacement, CheckedReplacement> memo =
        replacements.computeIfAbsent(r.declaredIn(), k -> new IdentityHashMap<>());
    CheckedReplacement done = memo.get(r.replacement());
    if (done != null) {
      return done;
    }
    Scope scope = r.declaredIn();
    List<CheckedReplacement.Stmt> body = new ArrayList<>();
    for (ReplStmt s : r.replacement().body()) {
      if (s instanceof ReplStmt.LabelDef l) {
        body.add(new CheckedReplacement.Stmt.Label(l.name(), l.span()));
      } else if (s instanceof ReplStmt.OriginalInsn o) {
        body.add(new CheckedReplacement.Stmt.Original(o.span()));
      } else if (s instanceof ReplStmt.SinkCall c) {
        body.add(call(c, scope));
      } else {
        ReplStmt.Instruction i = (ReplStmt.Instruction) s;
        List<CheckedReplacement.Arg> ops = new ArrayList<>();
        for (Operand o : i.operands()) {
          ops.add(operand(o, scope));
        }
        body.add(new CheckedReplacement.Stmt.Instruction(i.mnemonic().text(), ops, i.span()));
      }
    }
    CheckedReplacement checked =
        new CheckedReplacement(r.replacement().name().text(), body, r.span());
    memo.put(r.replacement(), checked);
    return checked;
  }

  private CheckedReplacement.Stmt call(ReplStmt.SinkCall c, Scope scope) {
    String sink = sinkName(c.sink(), scope);
    List<CheckedReplacement.Arg> args = new ArrayList<>();
    for (Operand o : c.args()) {
      args.add(operand(o, scope));
    }
    return new CheckedReplacement.Stmt.Call(sink, args, c.span());
  }

  /**
   * The component name of the sink {@code n} names (a {@code call} or a {@code tag}), which
   * active code thereby uses; reports an unknown name or one that is not a sink.
   */
  private String sinkName(Name n, Scope scope) {
    Entity e = lookupQualified(n, scope);
    String sink = n.text();
    if (e instanceof Scope.SinkE s) {
      sink = s.component().name();
      if (!s.component().component().equals("placeholder")) {
        out.sinks.putIfAbsent(sink, s.component());
      }
    } else if (e == null) {
      String hint = Suggest.didYouMean(sink, scope.visibleNames(Scope.SinkE.class));
      diags.error(n.span(), "unknown sink `" + sink + "`", hint != null ? hint
          : loaded.prelude().isEmpty()
              ? "no standard library prelude was found; declare it with `sink " + sink
                  + " = region_counter();` or pass --lib"
              // A component the runtime implements, so that following the hint runs.
              : "declare it, e.g. `sink " + sink + " = region_counter();` (the components are"
                  + " in spec/acf-language.md section 7)");
    } else {
      diags.error(n.span(), "`" + sink + "` is " + e.what() + ", not a sink");
    }
    return sink;
  }

  private CheckedReplacement.Arg operand(Operand o, Scope scope) {
    Span s = o.span();
    if (o instanceof Operand.Imm i) {
      return new CheckedReplacement.Arg.Imm(i.value(), s);
    } else if (o instanceof Operand.Insn i) {
      return new CheckedReplacement.Arg.Insn(s);
    } else if (o instanceof Operand.LabelRef l) {
      return new CheckedReplacement.Arg.LabelRef(l.name(), s);
    } else if (o instanceof Operand.SymbolAddr y) {
      return new CheckedReplacement.Arg.SymbolAddr(y.symbol(), y.end(), s);
    } else if (o instanceof Operand.Field f) {
      InstructionField field = InstructionField.byName(f.name());
      if (field == null) {
        diags.error(s, "unknown instruction field `T." + f.name() + "`",
            Suggest.didYouMean("T." + f.name(), staticFieldNames()));
        return new CheckedReplacement.Arg.Imm(0, s);
      }
      if (!field.isStatic()) {
        return new CheckedReplacement.Arg.Invalid("`" + field.spelling()
            + "` is known only while the instruction executes", s);
      }
      return new CheckedReplacement.Arg.Directive(field, s);
    } else if (o instanceof Operand.DiseReg d) {
      Matcher m = DISE_REGISTER.matcher(d.name());
      if (m.matches()) {
        return new CheckedReplacement.Arg.DiseReg(
            (int) Math.min(Integer.MAX_VALUE, Long.parseLong(m.group(1))), s);
      }
      return new CheckedReplacement.Arg.Invalid("`" + d.name()
          + "` is not a DISE register (they are `$dr0`, `$dr1`, ...)", s);
    } else if (o instanceof Operand.Mem m) {
      CheckedReplacement.Arg off = m.offset().map(x -> operand(x, scope))
          .orElse(new CheckedReplacement.Arg.Imm(0, s));
      return new CheckedReplacement.Arg.Mem(off, operand(m.base(), scope), s);
    } else if (o instanceof Operand.NameOp n) {
      String text = n.name().text();
      int x = Registers.x(text);
      if (x >= 0) {
        return new CheckedReplacement.Arg.XReg(x, s);
      }
      int f = Registers.f(text);
      if (f >= 0) {
        return new CheckedReplacement.Arg.FReg(f, s);
      }
      Entity e = lookupQualified(n.name(), scope);
      if (e instanceof Scope.ConstE c) {
        return new CheckedReplacement.Arg.Imm(c.value(), s);
      }
      if (e instanceof Scope.SymbolE y) {
        return new CheckedReplacement.Arg.SymbolAddr(y.symbol(), y.end(), y.span());
      }
      if (e instanceof Scope.RegisterE) {
        return new CheckedReplacement.Arg.Invalid("`" + text
            + "` is an HPS register, which only micro-ops read; replacement code uses "
            + "DISE registers `$drN`", s);
      }
      if (e != null) {
        return new CheckedReplacement.Arg.Invalid("`" + text + "` is " + e.what()
            + ", not an operand", s);
      }
      return new CheckedReplacement.Arg.Symbol(text.toLowerCase(Locale.ROOT), s);
    }
    throw new AssertionError(o);
  }

  static List<String> staticFieldNames() {
    List<String> names = new ArrayList<>();
    for (InstructionField f : InstructionField.values()) {
      if (f.isStatic()) {
        names.add(f.spelling());
      }
    }
    names.add("T.INSN");
    return names;
  }
}
