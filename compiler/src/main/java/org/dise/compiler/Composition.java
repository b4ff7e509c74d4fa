package org.dise.compiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.passes.BudgetCheck;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.CheckedReplacement.Stmt;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Counter;
import org.dise.compiler.sem.HpsRegister;

/**
 * Composes ACFs checked from several files ({@code acf run --acf a.acf --acf b.acf}) into one
 * program, as if each file's ACFs had been {@code use}d in one file, in command-line order (the
 * first paper, Section 3.5: "merging ... overlapping profiles"). The hardware is shared:
 *
 * <ul>
 *   <li>a counter or HPS register with the same index is the same one (so every file's {@code
 *       zero_0} reads one sampling flag); two files that declare it differently are an error;
 *   <li>a sink or trigger with the same name and the same binding is the same component (two ACFs
 *       that call {@code CallPair_handler} fill one profile); a later file's component whose name
 *       is taken by a different binding is renamed {@code name@file} (its calls follow);
 *   <li>the budget applies to the composed set.
 * </ul>
 */
public final class Composition {
  private Composition() {}

  /** The composed program, or empty when a conflict or the budget was reported. */
  public static Optional<CheckedProgram> compose(
      List<CheckedProgram> programs, List<String> fileNames, Diagnostics diags) {
    if (programs.size() == 1) {
      return Optional.of(programs.get(0));
    }
    int before = diags.errorCount();
    Map<Integer, Counter> counters = new LinkedHashMap<>();
    Map<Integer, HpsRegister> registers = new LinkedHashMap<>();
    Map<String, Component> sinks = new LinkedHashMap<>();
    Map<String, Component> triggers = new LinkedHashMap<>();
    List<CheckedAcf> acfs = new ArrayList<>();
    for (int i = 0; i < programs.size(); i++) {
      CheckedProgram p = programs.get(i);
      String file = stem(fileNames.get(i));
      for (Counter c : p.counters()) {
        Counter old = counters.putIfAbsent(c.index(), c);
        if (old != null && (old.width() != c.width() || old.init() != c.init())) {
          diags.error(
              c.span(),
              "counter "
                  + c.index()
                  + " is declared with width "
                  + c.width()
                  + " and initial value "
                  + c.init()
                  + " here, but as width "
                  + old.width()
                  + " and initial value "
                  + old.init()
                  + " at "
                  + where(old.span()),
              "composed ACFs share counters by index; declare it the same way in both files");
        }
      }
      for (HpsRegister r : p.registers()) {
        HpsRegister old = registers.putIfAbsent(r.index(), r);
        if (old != null && old.init() != r.init()) {
          diags.error(
              r.span(),
              "HPS register "
                  + r.index()
                  + " holds "
                  + r.init()
                  + " here, but "
                  + old.init()
                  + " at "
                  + where(old.span()),
              "composed ACFs share HPS registers by index");
        }
      }
      Map<String, String> renamed = new LinkedHashMap<>();
      for (Component c : p.sinks()) {
        merge(c, sinks, file, renamed);
      }
      for (Component c : p.triggers()) {
        merge(c, triggers, file, new LinkedHashMap<>());
      }
      for (CheckedAcf a : p.acfs()) {
        String name =
            acfs.stream().anyMatch(o -> o.name().equalsIgnoreCase(a.name()))
                ? a.name() + "@" + (i + 1)
                : a.name();
        acfs.add(
            new CheckedAcf(
                name,
                renamed.isEmpty()
                    ? a.productions()
                    : a.productions().stream().map(pr -> renameCalls(pr, renamed)).toList(),
                a.span()));
      }
    }
    CheckedProgram composed =
        new CheckedProgram(
            programs.get(0).budget(),
            new ArrayList<>(counters.values()),
            new ArrayList<>(registers.values()),
            new ArrayList<>(sinks.values()),
            new ArrayList<>(triggers.values()),
            acfs);
    BudgetCheck.run(composed, diags);
    return diags.errorCount() > before ? Optional.empty() : Optional.of(composed);
  }

  private static void merge(
      Component c, Map<String, Component> into, String file, Map<String, String> renamed) {
    String key = c.name().toLowerCase(Locale.ROOT);
    Component old = into.get(key);
    if (old == null) {
      into.put(key, c);
    } else if (!old.component().equals(c.component()) || !old.params().equals(c.params())) {
      String name = c.name() + "@" + file;
      renamed.put(key, name);
      into.put(
          name.toLowerCase(Locale.ROOT), new Component(name, c.component(), c.params(), c.span()));
    }
  }

  private static CheckedProduction renameCalls(CheckedProduction p, Map<String, String> renamed) {
    Optional<String> tag = p.tag().map(t -> renamed.getOrDefault(t.toLowerCase(Locale.ROOT), t));
    if (p.replacement().isEmpty()) {
      return new CheckedProduction(
          p.name(), p.pattern(), p.control(), p.replacement(), tag, p.span());
    }
    CheckedReplacement r = p.replacement().get();
    List<Stmt> body =
        r.body().stream()
            .map(
                s ->
                    s instanceof Stmt.Call c
                            && renamed.containsKey(c.sink().toLowerCase(Locale.ROOT))
                        ? new Stmt.Call(
                            renamed.get(c.sink().toLowerCase(Locale.ROOT)),
                            c.args(),
                            c.result(),
                            c.span())
                        : s)
            .toList();
    return new CheckedProduction(
        p.name(),
        p.pattern(),
        p.control(),
        Optional.of(new CheckedReplacement(r.name(), body, r.deletes(), r.span())),
        tag,
        p.span());
  }

  private static String where(org.dise.compiler.diag.Span s) {
    return s.file().name() + ":" + s.line() + ":" + s.column();
  }

  private static String stem(String file) {
    String base = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
    int dot = base.lastIndexOf('.');
    return dot > 0 ? base.substring(0, dot) : base;
  }
}
