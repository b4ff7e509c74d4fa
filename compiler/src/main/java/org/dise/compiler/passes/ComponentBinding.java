package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dise.compiler.ast.Arg;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Name;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Value;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;

/**
 * Part of pass "name-resolution": binds a {@code sink} or {@code trigger} declaration to its
 * runtime component, checking its parameters' names and types against the catalogue.
 */
final class ComponentBinding {
  private final NameResolution nr;
  private final Diagnostics diags;

  /** Component names taken so far (instances of a block qualify theirs). */
  private final Set<String> componentNames = new HashSet<>();

  ComponentBinding(NameResolution nr) {
    this.nr = nr;
    this.diags = nr.diags();
  }

  Component component(
      Name name, Name kind, List<Arg> args, boolean isSink, Scope scope, String prefix) {
    String what = isSink ? "sink" : "trigger";
    Optional<ComponentSpec> spec = Catalogue.find(kind.key()).filter(s -> s.isSink() == isSink);
    Map<String, Value> params = new LinkedHashMap<>();
    if (spec.isEmpty()) {
      List<String> candidates = new ArrayList<>();
      Catalogue.all().stream()
          .filter(s -> s.isSink() == isSink)
          .forEach(s -> candidates.add(s.name()));
      if (Catalogue.REMOVED.containsKey(kind.key())) {
        diags.error(
            kind.span(),
            "`" + kind.text() + "` is no longer a " + what + " component",
            Catalogue.REMOVED.get(kind.key()));
      } else {
        String hint = Suggest.didYouMean(kind.text(), candidates);
        diags.error(
            kind.span(),
            "unknown " + what + " component `" + kind.text() + "`",
            hint != null
                ? hint
                : "the " + what + " components are " + String.join(", ", candidates));
      }
    } else {
      Map<String, String> text = new LinkedHashMap<>();
      Map<String, Span> at = new LinkedHashMap<>();
      for (Arg a : args) {
        if (a.name().isEmpty()) {
          diags.error(a.span(), what + " parameters are named", "write `name = value`");
          continue;
        }
        Name pn = a.name().get();
        Optional<ParamSpec> ps = spec.get().param(pn.key());
        if (ps.isEmpty()) {
          diags.error(
              pn.span(),
              "`" + kind.text() + "` has no parameter `" + pn.text() + "`",
              spec.get().params().isEmpty() ? null : hintFor(pn.text(), spec.get()));
          continue;
        }
        if (params.containsKey(pn.key())) {
          diags.error(pn.span(), "parameter `" + pn.text() + "` is given twice");
          continue;
        }
        Value v = componentValue(a.value(), ps.get(), scope);
        if (v == null) {
          continue;
        }
        String t = Value.text(v);
        // A program symbol's address is known only at load, where the runtime checks the
        // number against the same catalogue.
        Optional<String> problem =
            v instanceof Value.Address ? Optional.empty() : ps.get().requirement(t);
        if (problem.isPresent()) {
          diags.error(
              a.value().span(),
              "parameter `" + pn.text() + "` of `" + kind.text() + "` " + problem.get());
          continue;
        }
        params.put(pn.key(), v);
        text.put(pn.key(), t);
        at.put(pn.key(), a.value().span());
      }
      if (text.size() == args.size()
          && spec.get().check() != null
          && params.values().stream().noneMatch(x -> x instanceof Value.Address)) {
        spec.get()
            .check()
            .apply(text)
            .ifPresent(
                p ->
                    diags.error(
                        at.getOrDefault(p.param(), kind.span()),
                        "`" + kind.text() + "`: " + p.message()));
      }
    }
    String unique = prefix.isEmpty() ? name.text() : prefix + "." + name.text();
    String candidate = unique;
    for (int i = 2; !componentNames.add(candidate.toLowerCase(Locale.ROOT)); i++) {
      candidate = unique + "#" + i;
    }
    return new Component(candidate, kind.key(), params, name.span().to(kind.span()));
  }

  private static String hintFor(String param, ComponentSpec spec) {
    String dym = Suggest.didYouMean(param, spec.paramNames());
    return dym != null ? dym : "its parameters are " + String.join(", ", spec.paramNames());
  }

  private Value componentValue(Expr e, ParamSpec spec, Scope scope) {
    String param = spec.name();
    switch (spec.type()) {
      case BOOL -> {
        if (e instanceof Expr.BoolLit b) {
          return new Value.Bool(b.value());
        }
        if (e instanceof Expr.NameRef n && scope.lookup(n.name().key()) instanceof Scope.BoolE b) {
          return new Value.Bool(b.value());
        }
        diags.error(e.span(), "parameter `" + param + "` takes `true` or `false`");
        return null;
      }
      case CHOICE, NAME -> {
        if (e instanceof Expr.NameRef n) {
          Entity ent = scope.lookup(n.name().key());
          if (ent instanceof Scope.SinkE s) {
            return new Value.Symbol(s.component().name());
          }
          return new Value.Symbol(
              spec.type() == ParamSpec.Type.CHOICE ? n.name().key() : n.name().text());
        }
        if (e instanceof Expr.StringLit s) {
          return new Value.Symbol(s.value());
        }
        diags.error(
            e.span(),
            "parameter `"
                + param
                + "` takes a name"
                + (spec.type() == ParamSpec.Type.CHOICE ? ": " + spec.range() : ""));
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
            && nr.lookupQualified(n.name(), scope) instanceof Scope.SymbolE y) {
          return new Value.Address(y.symbol(), y.end(), y.span());
        }
        Long v = nr.constant(e, scope);
        return v == null ? null : new Value.Int(v);
      }
    }
  }
}
