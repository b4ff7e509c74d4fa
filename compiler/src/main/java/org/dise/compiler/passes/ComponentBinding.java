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
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Components;
import org.dise.compiler.sem.Value;

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

  Component component(Name name, Name kind, List<Arg> args, boolean isSink, Scope scope,
      String prefix) {
    String what = isSink ? "sink" : "trigger";
    Optional<Components.Spec> spec = nr.components().find(kind.key())
        .filter(s -> s.isSink() == isSink);
    Map<String, Value> params = new LinkedHashMap<>();
    if (spec.isEmpty()) {
      List<String> candidates = new ArrayList<>();
      nr.components().all().values().stream().filter(s -> s.isSink() == isSink)
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
        Long v = nr.constant(e, scope);
        return v == null ? null : new Value.Int(v);
      }
    }
  }

}
