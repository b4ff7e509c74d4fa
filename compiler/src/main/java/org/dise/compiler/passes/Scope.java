package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.compiler.ast.Item;
import org.dise.compiler.diag.Span;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Counter;
import org.dise.compiler.sem.HpsRegister;

/** A lexical scope of declarations: a file, an import, or one instance of an {@code acf} block. */
final class Scope {
  /** What a name stands for. */
  sealed interface Entity {
    Span span();

    /** The word diagnostics use: "a constant", "a sink"... */
    String what();
  }

  record ConstE(long value, Span span) implements Entity {
    public String what() {
      return "a constant";
    }
  }

  /**
   * An {@code int} parameter given {@code symbol(NAME)} or {@code symbol_end(NAME)}: an address
   * known when the program is loaded; {@code span} is where the symbol is written.
   */
  record SymbolE(String symbol, boolean end, Span span) implements Entity {
    public String what() {
      return "a program symbol's address";
    }
  }

  record BoolE(boolean value, Span span) implements Entity {
    public String what() {
      return "a boolean";
    }
  }

  record CounterE(Counter counter, Span span) implements Entity {
    public String what() {
      return "a counter";
    }
  }

  record RegisterE(HpsRegister register, Span span) implements Entity {
    public String what() {
      return "an HPS register";
    }
  }

  record SinkE(Component component, Span span) implements Entity {
    public String what() {
      return "a sink";
    }
  }

  record TriggerE(Component component, Span span) implements Entity {
    public String what() {
      return "a trigger";
    }
  }

  record OpClassE(String name, Span span) implements Entity {
    public String what() {
      return "an opcode class";
    }
  }

  record OpE(String mnemonic, Span span) implements Entity {
    public String what() {
      return "an instruction";
    }
  }

  record BlockE(Item.AcfBlock block, Scope definedIn, Span span) implements Entity {
    public String what() {
      return "an ACF block";
    }
  }

  record ReplE(Item.Replacement replacement, Scope declaredIn, Span span) implements Entity {
    public String what() {
      return "a replacement";
    }
  }

  record ModuleE(Scope scope, Span span) implements Entity {
    public String what() {
      return "an imported module";
    }
  }

  /** Two unaliased imports declare the same name. */
  record AmbiguousE(List<Span> candidates, Span span) implements Entity {
    public String what() {
      return "an ambiguous name";
    }
  }

  final String label;
  final Scope parent;
  final Map<String, Entity> entries = new LinkedHashMap<>();
  private final Map<String, String> spellings = new LinkedHashMap<>();

  /** Declares a name as written; lookups ignore case. */
  void put(String spelled, Entity e) {
    String key = spelled.toLowerCase(java.util.Locale.ROOT);
    entries.put(key, e);
    spellings.put(key, spelled);
  }

  Scope(String label, Scope parent) {
    this.label = label;
    this.parent = parent;
  }

  Entity lookup(String key) {
    for (Scope s = this; s != null; s = s.parent) {
      Entity e = s.entries.get(key);
      if (e != null) {
        return e;
      }
    }
    return null;
  }

  /** Every name visible here, for suggestions. */
  Collection<String> visibleNames() {
    List<String> out = new ArrayList<>();
    for (Scope s = this; s != null; s = s.parent) {
      out.addAll(s.spellings.values());
    }
    return out;
  }

  /** Names visible here whose entity is of the given class. */
  Collection<String> visibleNames(Class<? extends Entity> kind) {
    List<String> out = new ArrayList<>();
    for (Scope s = this; s != null; s = s.parent) {
      Scope t = s;
      s.entries.forEach(
          (k, v) -> {
            if (kind.isInstance(v)) {
              out.add(t.spellings.get(k));
            }
          });
    }
    return out;
  }
}
