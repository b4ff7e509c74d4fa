package org.dise.repl.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Name;
import org.dise.compiler.diag.Span;
import org.dise.compiler.lib.LibraryResolver;

/**
 * Finds what a name in a document refers to, in the order name resolution looks (spec
 * acf-language.md section 5): the enclosing block's parameters and items, the file's own
 * declarations, then the modules and files it imports, then the prelude.
 */
final class Navigator {
  /** A declaration and the document (URI) it is written in. */
  record Target(String uri, Declarations.Decl decl) {}

  /** A module or file the document imports, and the alias it is imported under. */
  record Imported(Item.Import item, Optional<LibrarySources.Source> source) {}

  private final LibrarySources sources;

  Navigator(LibrarySources sources) {
    this.sources = sources;
  }

  private static final java.util.regex.Pattern IMPORT =
      java.util.regex.Pattern.compile(
          "(?m)^\\s*import[ \\t]+(?:\"([^\"]*)\"|([A-Za-z_][\\w.]*))(?:\\s+as\\s+([A-Za-z_]\\w*))?");

  /**
   * The imports of a document, resolved. While the text does not parse (a line half typed) they are
   * read from the text itself, so that completion still knows the imported blocks.
   */
  List<Imported> imports(AcfDocument doc) {
    List<Imported> out = new ArrayList<>();
    if (doc.result.ast().isPresent()) {
      for (Item item : doc.result.ast().get().items()) {
        if (item instanceof Item.Import imp) {
          out.add(new Imported(imp, resolve(doc, imp)));
        }
      }
      return out;
    }
    java.util.regex.Matcher m = IMPORT.matcher(doc.text);
    while (m.find()) {
      boolean isFile = m.group(1) != null;
      Item.Import imp =
          new Item.Import(
              new Name(isFile ? m.group(1) : m.group(2), Span.NONE),
              isFile,
              Optional.ofNullable(m.group(3)).map(a -> new Name(a, Span.NONE)),
              Span.NONE);
      out.add(new Imported(imp, resolve(doc, imp)));
    }
    return out;
  }

  Optional<LibrarySources.Source> resolve(AcfDocument doc, Item.Import imp) {
    return imp.isFile()
        ? sources.file(doc.dir().orElse(null), imp.target().text())
        : sources.module(imp.target().text());
  }

  Optional<LibrarySources.Source> prelude() {
    return sources.module(LibraryResolver.PRELUDE);
  }

  /** The declarations a word at an offset may refer to, the most likely first. */
  List<Target> definitions(AcfDocument doc, String word, int offset) {
    List<Target> out = new ArrayList<>();
    String key = word.toLowerCase(Locale.ROOT);
    // `alias.name` looks into the aliased import only.
    int dot = key.indexOf('.');
    if (dot > 0) {
      String alias = key.substring(0, dot);
      for (Imported imp : imports(doc)) {
        if (imp.item().alias().map(a -> a.key().equals(alias)).orElse(false)
            && imp.source().isPresent()) {
          addTopLevel(imp.source().get(), key.substring(dot + 1), out);
        }
      }
      if (!out.isEmpty()) {
        return out;
      }
    }
    Optional<Item.AcfBlock> block = doc.blockAt(offset);
    if (block.isPresent()) {
      for (Declarations.Decl d : doc.declarations) {
        if (d.block().isPresent() && d.block().get() == block.get() && matches(d, key)) {
          out.add(new Target(doc.uri, d));
        }
      }
    }
    for (Declarations.Decl d : doc.declarations) {
      if (d.block().isEmpty() && matches(d, key)) {
        out.add(new Target(doc.uri, d));
      }
    }
    for (Imported imp : imports(doc)) {
      imp.source().ifPresent(s -> addTopLevel(s, key, out));
    }
    prelude().ifPresent(s -> addTopLevel(s, key, out));
    return out;
  }

  private static void addTopLevel(LibrarySources.Source source, String key, List<Target> out) {
    for (Declarations.Decl d : source.ast().map(Declarations::of).orElse(List.of())) {
      if (d.block().isEmpty() && matches(d, key)) {
        out.add(new Target(source.uri(), d));
      }
    }
  }

  private static boolean matches(Declarations.Decl d, String key) {
    return d.kind() != Declarations.Kind.IMPORT
        && d.kind() != Declarations.Kind.USE
        && d.name().key().equals(key);
  }

  /** Every top-level declaration the document can see from its imports and the prelude. */
  List<Target> visibleFromImports(AcfDocument doc) {
    List<Target> out = new ArrayList<>();
    List<LibrarySources.Source> all = new ArrayList<>();
    for (Imported imp : imports(doc)) {
      imp.source().ifPresent(all::add);
    }
    prelude().ifPresent(all::add);
    for (LibrarySources.Source s : all) {
      for (Declarations.Decl d : s.ast().map(Declarations::of).orElse(List.of())) {
        if (d.block().isEmpty()
            && d.kind() != Declarations.Kind.IMPORT
            && d.kind() != Declarations.Kind.USE) {
          out.add(new Target(s.uri(), d));
        }
      }
    }
    return out;
  }

  /** The import item whose target text covers an offset, if the offset is on one. */
  static Optional<Item.Import> importAt(AcfFile ast, int offset) {
    for (Item item : ast.items()) {
      if (item instanceof Item.Import imp
          && imp.target().span().start() <= offset
          && offset <= imp.target().span().end()) {
        return Optional.of(imp);
      }
    }
    return Optional.empty();
  }
}
