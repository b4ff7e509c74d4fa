package org.dise.repl.lsp;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.dise.compiler.ast.Item;
import org.dise.compiler.lib.StandardLibrary;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.isa.Op;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;

/**
 * Hover: a field's, opcode class's, flag's or component's documentation with the paper section it
 * follows, and for a declared name (a library block, a sink, a production) its signature and the
 * comment written above it, with where it is declared.
 */
final class AcfHover {
  private final Navigator navigator;

  AcfHover(Navigator navigator) {
    this.navigator = navigator;
  }

  Optional<Hover> hover(AcfDocument doc, int offset) {
    Optional<AcfDocument.Word> word = doc.wordAt(offset);
    if (word.isEmpty()) {
      return Optional.empty();
    }
    String w = word.get().text();
    Optional<String> md = markdown(doc, w, offset);
    return md.map(
        text ->
            new Hover(
                new MarkupContent(MarkupKind.MARKDOWN, text),
                Positions.range(doc.text, word.get().start(), word.get().end())));
  }

  private Optional<String> markdown(AcfDocument doc, String w, int offset) {
    if (w.length() > 2 && (w.startsWith("T.") || w.startsWith("t."))) {
      return LanguageDocs.field(w.substring(2));
    }
    if (doc.ast.isPresent()) {
      Optional<Item.Import> imp = Navigator.importAt(doc.ast.get(), offset);
      if (imp.isPresent() && !imp.get().isFile()) {
        return StandardLibrary.module(imp.get().target().text())
            .map(
                m ->
                    "**library module `"
                        + m.name()
                        + "`**: "
                        + m.summary()
                        + "\n\nblocks: "
                        + (m.blocks().isEmpty()
                            ? "none"
                            : "`" + String.join("`, `", m.blocks()) + "`"));
      }
    }
    List<Navigator.Target> targets = navigator.definitions(doc, w, offset);
    if (!targets.isEmpty()) {
      return Optional.of(describe(doc, targets.get(0)));
    }
    Optional<String> builtin = Catalogue.find(w).map(AcfHover::component);
    if (builtin.isEmpty()) {
      builtin = LanguageDocs.opClass(w);
    }
    if (builtin.isEmpty()) {
      builtin = LanguageDocs.paperForm(w);
    }
    if (builtin.isEmpty()) {
      builtin = LanguageDocs.keyword(w);
    }
    if (builtin.isEmpty()) {
      builtin = mnemonic(w);
    }
    return builtin;
  }

  /** A component: the papers' account (LanguageDocs), the catalogue's line, its parameters. */
  private static String component(ComponentSpec s) {
    StringBuilder sb =
        new StringBuilder(
            LanguageDocs.component(s.name()).orElse("**" + s.name() + "**: " + s.doc() + "."));
    sb.append("\n\n")
        .append(s.isSink() ? "sink" : "trigger")
        .append(" component: ")
        .append(s.doc())
        .append("\n\nparameters:");
    for (ParamSpec p : s.params()) {
      sb.append("\n- `")
          .append(p.name())
          .append("` ")
          .append(p.range())
          .append(p.dflt().isEmpty() ? "" : ", default " + p.dflt())
          .append(": ")
          .append(p.doc());
    }
    return sb.toString();
  }

  private static Optional<String> mnemonic(String w) {
    String key = w.toLowerCase(Locale.ROOT);
    for (Op op : Op.values()) {
      if (op.mnemonic().equals(key)) {
        return Optional.of(
            "**" + key + "**: RISC-V instruction, opcode class `" + op.opClass().acfName() + "`.");
      }
    }
    return Optional.empty();
  }

  private static String describe(AcfDocument doc, Navigator.Target t) {
    Declarations.Decl d = t.decl();
    StringBuilder sb = new StringBuilder();
    sb.append("**").append(d.kind().label).append("** `").append(d.signature()).append('`');
    if (!d.doc().isEmpty()) {
      sb.append("\n\n").append(d.doc());
    }
    String where = t.uri().equals(doc.uri) ? "this file" : d.span().file().name();
    sb.append("\n\n*declared in ")
        .append(where)
        .append(", line ")
        .append(d.span().line())
        .append('*');
    return sb.toString();
  }
}
