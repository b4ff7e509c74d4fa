package org.dise.repl.lsp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Comment;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Name;
import org.dise.compiler.ast.Param;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;
import org.dise.repl.common.ItemName;

/**
 * The names one parsed file declares, with where, what kind, a one-line signature and the comment
 * written above them: what go-to-definition, hover, completion and the outline read.
 */
final class Declarations {
  /** What a declaration is; {@code label} is how hovers and completions name it. */
  enum Kind {
    PRODUCTION("production", ItemName.PRODUCTION),
    REPLACEMENT("replacement sequence", ItemName.REPLACEMENT),
    BLOCK("acf block", ItemName.BLOCK),
    SINK("sink", ItemName.SINK),
    TRIGGER("trigger", ItemName.TRIGGER),
    COUNTER("counter", ItemName.COUNTER),
    REGISTER("HPS register", ItemName.REGISTER),
    CONST("constant", ItemName.CONST),
    PARAM("parameter", null),
    IMPORT("import", ItemName.IMPORT),
    USE("use", ItemName.USE);

    final String label;

    /** The items that declare it (none for a block's parameter). */
    final ItemName item;

    Kind(String label, ItemName item) {
      this.label = label;
      this.item = item;
    }

    /** The kind of what the item declares, or empty for an item that declares nothing. */
    static Optional<Kind> of(Item item) {
      return ItemName.of(item)
          .flatMap(n -> Arrays.stream(values()).filter(k -> k.item == n).findFirst());
    }
  }

  /** One declaration; {@code block} is the enclosing {@code acf} block, if any. */
  record Decl(
      Name name,
      Kind kind,
      Item item,
      Span span,
      Optional<Item.AcfBlock> block,
      String signature,
      String doc) {}

  private Declarations() {}

  /** Every declaration of the file, blocks' contents included, in source order. */
  static List<Decl> of(AcfFile file) {
    List<Decl> out = new ArrayList<>();
    collect(file, file.items(), Optional.empty(), out);
    return out;
  }

  private static void collect(
      AcfFile file, List<Item> items, Optional<Item.AcfBlock> block, List<Decl> out) {
    for (Item item : items) {
      if (item instanceof Item.AcfBlock b) {
        out.add(
            new Decl(
                b.name(),
                Kind.BLOCK,
                b,
                b.span(),
                block,
                signature(file, b),
                docAbove(file, b.span())));
        for (Param p : b.params()) {
          out.add(
              new Decl(
                  p.name(),
                  Kind.PARAM,
                  b,
                  p.span(),
                  Optional.of(b),
                  text(file.source(), p.span()),
                  ""));
        }
        collect(file, b.body(), Optional.of(b), out);
      } else {
        Kind.of(item)
            .ifPresent(
                kind ->
                    out.add(
                        new Decl(
                            kind.item.nameOf(item),
                            kind,
                            item,
                            item.span(),
                            block,
                            signature(file, item),
                            docAbove(file, item.span()))));
      }
    }
  }

  /** The item's text up to its body: a block's header, a sink's binding, a production's line. */
  static String signature(AcfFile file, Item item) {
    String t = text(file.source(), item.span());
    if (item instanceof Item.AcfBlock) {
      int brace = t.indexOf('{');
      t = brace < 0 ? t : t.substring(0, brace);
    }
    return t.replaceAll("\\s+", " ").strip();
  }

  static String text(SourceFile source, Span span) {
    String s = source.text();
    return s.substring(Math.max(0, span.start()), Math.min(s.length(), span.end()));
  }

  /** The {@code //} lines written directly above a span (no blank line between). */
  static String docAbove(AcfFile file, Span span) {
    SourceFile src = file.source();
    int line = src.line(span.start());
    List<String> lines = new ArrayList<>();
    for (int l = line - 1; l >= 1; l--) {
      String t = src.lineText(l).strip();
      if (!t.startsWith("//")) {
        break;
      }
      lines.add(0, t.substring(2).strip());
    }
    // A header comment separated from the block by code is not its doc; comments() confirms
    // the lines are comments rather than text inside a string.
    if (!lines.isEmpty()
        && file.comments().stream()
            .map(Comment::span)
            .noneMatch(c -> src.line(c.start()) == line - 1)) {
      return "";
    }
    return String.join("\n", lines);
  }
}
