package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.dise.compiler.ast.Arg;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Name;
import org.dise.compiler.ast.Param;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Counter;
import org.dise.runtime.dise.HardwareBudget;

/**
 * Part of pass "name-resolution": {@code use} of an {@code acf} block: one fresh instance of its
 * declarations per use, with its parameters bound to the arguments (their types checked).
 */
final class BlockInstantiation {
  /** Parameter types of {@code acf} blocks. */
  static final List<String> PARAM_TYPES =
      List.of("int", "bool", "counter", "register", "sink", "trigger", "opclass", "op");

  private static final int MAX_INSTANCE_DEPTH = 16;

  private final NameResolution nr;
  private final Diagnostics diags;
  private final Map<String, Integer> instanceCounts = new HashMap<>();
  private int depth;

  BlockInstantiation(NameResolution nr) {
    this.nr = nr;
    this.diags = nr.diags();
  }

  /** Whether some {@code use} (or the check of an unused block) instantiated {@code b}. */
  boolean instantiated(Item.AcfBlock b) {
    return instanceCounts.containsKey(blockKey(b));
  }

  private static String blockKey(Item.AcfBlock b) {
    return b.span().file().name() + "@" + b.span().start();
  }

  void checkParamTypes(Item.AcfBlock b) {
    Set<String> seen = new HashSet<>();
    for (Param p : b.params()) {
      if (!PARAM_TYPES.contains(p.type().key())) {
        diags.error(
            p.type().span(),
            "unknown parameter type `" + p.type().text() + "`",
            Suggest.didYouMean(p.type().text(), PARAM_TYPES) != null
                ? Suggest.didYouMean(p.type().text(), PARAM_TYPES)
                : "types are " + String.join(", ", PARAM_TYPES));
      }
      if (!seen.add(p.name().key())) {
        diags.error(p.name().span(), "parameter `" + p.name().text() + "` is declared twice");
      }
    }
  }

  void use(Item.Use u, Scope scope) {
    Entity e = nr.lookupQualified(u.target(), scope);
    if (e == null) {
      diags.error(
          u.target().span(),
          "unknown ACF block `" + u.target().text() + "`",
          Suggest.didYouMean(u.target().text(), scope.visibleNames(Scope.BlockE.class)));
      return;
    }
    if (!(e instanceof Scope.BlockE b)) {
      diags.error(
          u.target().span(), "`" + u.target().text() + "` is " + e.what() + ", not an ACF block");
      return;
    }
    instantiate(b.block(), b.definedIn(), u.args(), u.span(), false, scope);
  }

  void instantiate(
      Item.AcfBlock b, Scope definedIn, List<Arg> args, Span at, boolean placeholders) {
    instantiate(b, definedIn, args, at, placeholders, definedIn);
  }

  /** Creates one instance of a block: its declarations fresh, its productions one new ACF. */
  private void instantiate(
      Item.AcfBlock b,
      Scope definedIn,
      List<Arg> args,
      Span at,
      boolean placeholders,
      Scope caller) {
    if (depth >= MAX_INSTANCE_DEPTH) {
      diags.error(
          at,
          "ACF block `"
              + b.name().text()
              + "` instantiates itself (nesting deeper than "
              + MAX_INSTANCE_DEPTH
              + ")");
      return;
    }
    int n = instanceCounts.merge(blockKey(b), 1, Integer::sum);
    String instanceName = n == 1 ? b.name().text() : b.name().text() + "#" + n;
    Scope inst = new Scope("block " + instanceName, definedIn);
    bindParams(b, args, at, caller, inst, placeholders);
    int position = nr.out().acfs.size();
    nr.out().acfs.add(null);
    List<CheckedProduction> productions = new ArrayList<>();
    depth++;
    try {
      nr.declareItems(b.body(), inst, true, productions, instanceName);
    } finally {
      depth--;
    }
    nr.out().acfs.set(position, new CheckedAcf(instanceName, productions, at));
  }

  private void bindParams(
      Item.AcfBlock b, List<Arg> args, Span at, Scope caller, Scope inst, boolean placeholders) {
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
          diags.error(
              pn.span(),
              "`" + b.name().text() + "` has no parameter `" + pn.text() + "`",
              Suggest.didYouMean(pn.text(), names));
        } else if (given.putIfAbsent(pn.key(), a) != null) {
          diags.error(pn.span(), "parameter `" + pn.text() + "` is given twice");
        }
      } else if (named) {
        diags.error(a.span(), "positional arguments come before named ones");
      } else if (positional >= b.params().size()) {
        diags.error(
            a.span(),
            "`"
                + b.name().text()
                + "` takes "
                + b.params().size()
                + " argument"
                + (b.params().size() == 1 ? "" : "s"));
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
        diags.error(
            at,
            "missing argument `" + p.name().text() + "` of `" + b.name().text() + "`",
            "it has no default; write `" + p.name().text() + " = ...`");
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
      case "counter" ->
          new Scope.CounterE(
              new Counter(0, p.name().text(), HardwareBudget.DEFAULT_COUNTER_WIDTH, 0, s), s);
      case "register" -> nr.builtins().lookup("hps_r0");
      case "sink" -> new Scope.SinkE(new Component(p.name().text(), "placeholder", Map.of(), s), s);
      case "trigger" ->
          new Scope.TriggerE(new Component(p.name().text(), "placeholder", Map.of(), s), s);
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
            && nr.lookupQualified(n.name(), caller) instanceof Scope.SymbolE y) {
          return y;
        }
        Long v = nr.constant(e, caller);
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
          return new Scope.CounterE(nr.counterByIndex(n.value(), s), s);
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
        return isaName(
            e,
            caller,
            expected,
            Scope.OpClassE.class,
            nr.opClasses(),
            "opcode class",
            Scope.OpClassE::new);
      }
      case "op" -> {
        return isaName(
            e, caller, expected, Scope.OpE.class, nr.mnemonics(), "instruction", Scope.OpE::new);
      }
      default -> {
        return null; // the unknown type was reported at the parameter
      }
    }
  }

  /**
   * An argument naming one of the ISA's {@code names} (an opcode class, an instruction): a
   * parameter of that {@code kind} in {@code caller}, or the name itself ({@code make} from the
   * name and where it is written); otherwise an error saying it is an unknown {@code what}.
   */
  private Entity isaName(
      Expr e,
      Scope caller,
      String expected,
      Class<? extends Entity> kind,
      Set<String> names,
      String what,
      BiFunction<String, Span, Entity> make) {
    if (e instanceof Expr.NameRef n) {
      Entity ent = caller.lookup(n.name().key());
      if (kind.isInstance(ent)) {
        return ent;
      }
      if (names.contains(n.name().key())) {
        return make.apply(n.name().key(), e.span());
      }
      diags.error(
          e.span(),
          "unknown " + what + " `" + n.name().text() + "`",
          Suggest.didYouMean(n.name().text(), names));
      return null;
    }
    diags.error(e.span(), expected);
    return null;
  }

  private Entity entityOf(Expr e, Scope scope, Class<? extends Entity> kind, String expected) {
    if (e instanceof Expr.NameRef n) {
      Entity ent = nr.lookupQualified(n.name(), scope);
      if (kind.isInstance(ent)) {
        return ent;
      }
      if (ent == null) {
        diags.error(
            e.span(),
            "unknown name `" + n.name().text() + "`",
            Suggest.didYouMean(n.name().text(), scope.visibleNames(kind)));
      } else {
        diags.error(e.span(), expected + ", but `" + n.name().text() + "` is " + ent.what());
      }
      return null;
    }
    diags.error(e.span(), expected);
    return null;
  }
}
