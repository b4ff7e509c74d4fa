package org.dise.repl.lsp;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.Frontend;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;
import org.dise.compiler.diag.Severity;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;

/**
 * One open document and what the compiler's front end says about it: the same {@link Frontend} run
 * as {@code acf check}, so the messages, ranges and hints are the same. The last text that parsed
 * is kept, so that navigation keeps working while a line is half typed.
 */
final class AcfDocument {
  final String uri;
  final Optional<Path> path;
  final String text;
  final SourceFile source;
  final Frontend.Result result;

  /** This text's AST, or the last one that parsed. */
  final Optional<AcfFile> ast;

  final List<Declarations.Decl> declarations;

  AcfDocument(String uri, String text, Frontend frontend, Optional<AcfFile> previous) {
    this.uri = uri;
    this.path = pathOf(uri);
    this.text = text;
    // The name diagnostics print is the file's path, as `acf check FILE` prints it.
    this.source = new SourceFile(path.map(Path::toString).orElse(uri), text);
    this.result = frontend.check(source, path.orElse(null));
    this.ast = result.ast().isPresent() ? result.ast() : previous;
    this.declarations = ast.map(Declarations::of).orElse(List.of());
  }

  static Optional<Path> pathOf(String uri) {
    try {
      URI u = URI.create(uri);
      return "file".equals(u.getScheme()) ? Optional.of(Path.of(u)) : Optional.empty();
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      return Optional.empty();
    }
  }

  Optional<Path> dir() {
    return path.map(Path::toAbsolutePath).map(Path::getParent);
  }

  /** The front end's diagnostics as LSP diagnostics of this document. */
  List<Diagnostic> diagnostics() {
    List<Diagnostic> out = new ArrayList<>();
    for (org.dise.compiler.diag.Diagnostic d : result.diagnostics().sorted()) {
      out.add(convert(d));
    }
    return out;
  }

  private Diagnostic convert(org.dise.compiler.diag.Diagnostic d) {
    Span span = d.span();
    String message = d.message();
    int start;
    int end;
    if (span.file() == source) {
      start = span.start();
      end = span.end();
    } else {
      // A problem inside an imported file is shown on the import that brought it in (or the
      // first line), with the place acf check names.
      Span at = importFor(span.file().name()).orElse(null);
      start = at == null ? 0 : at.start();
      end = at == null ? 0 : at.end();
      message = span.isNone() ? message : "in " + span + ": " + message;
    }
    if (end <= start) {
      // An empty range (a missing token, the end of the file) still gets one visible
      // character when the line has one, as acf check's underline has a `^`.
      int lineEnd = text.indexOf('\n', start);
      lineEnd = lineEnd < 0 ? text.length() : lineEnd;
      end = Math.min(start + 1, lineEnd);
    }
    Diagnostic out =
        new Diagnostic(
            Positions.range(text, start, end),
            d.hint() == null ? message : message + "\nhint: " + d.hint());
    out.setSeverity(
        d.severity() == Severity.ERROR
            ? DiagnosticSeverity.Error
            : d.severity() == Severity.WARNING
                ? DiagnosticSeverity.Warning
                : DiagnosticSeverity.Information);
    out.setSource("acf");
    return out;
  }

  private Optional<Span> importFor(String fileName) {
    if (ast.isEmpty()) {
      return Optional.empty();
    }
    for (Item item : ast.get().items()) {
      if (item instanceof Item.Import imp) {
        String target = imp.target().text();
        if (fileName.equals("lib:" + target)
            || fileName.endsWith(target)
            || fileName.endsWith(target.replace('.', '/') + ".acf")) {
          return Optional.of(imp.span());
        }
      }
    }
    return Optional.empty();
  }

  /** The word under an offset: a name, a dotted name, {@code T.FIELD} or {@code $dr0}. */
  Optional<Word> wordAt(int offset) {
    int s = Math.min(offset, text.length());
    while (s > 0 && isWordChar(text.charAt(s - 1))) {
      s--;
    }
    int e = Math.min(offset, text.length());
    while (e < text.length() && isWordChar(text.charAt(e))) {
      e++;
    }
    if (s == e) {
      return Optional.empty();
    }
    String w = text.substring(s, e);
    // A trailing dot (a half-typed `T.`) belongs to no name.
    while (w.endsWith(".")) {
      w = w.substring(0, w.length() - 1);
      e--;
    }
    return w.isEmpty() ? Optional.empty() : Optional.of(new Word(w, s, e));
  }

  static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '$';
  }

  /** A word of the text and its offsets. */
  record Word(String text, int start, int end) {}

  /** The innermost {@code acf} block whose text contains the offset. */
  Optional<Item.AcfBlock> blockAt(int offset) {
    Optional<Item.AcfBlock> found = Optional.empty();
    for (Declarations.Decl d : declarations) {
      if (d.kind() == Declarations.Kind.BLOCK
          && d.span().start() <= offset
          && offset <= d.span().end()) {
        found = Optional.of((Item.AcfBlock) d.item());
      }
    }
    return found;
  }
}
