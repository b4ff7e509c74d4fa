package org.dise.repl.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.Diagnostic;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Severity;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;
import org.dise.compiler.lib.ClasspathLibraryResolver;
import org.dise.runtime.dise.ProductionSet;

/**
 * The REPL's production set: loaded ACF files and typed entries, compiled together as one ACF (the
 * files' texts in load order, then the typed entries). Every change is checked with the same front
 * end as {@code acf check}; a change with an error is refused and the previous good state stays.
 * Diagnostics name the file or {@code <repl>} (the typed entries, numbered as one text) with their
 * own line numbers.
 *
 * <p>Typed entries read the language as files do: a production may name a replacement, sink or
 * counter typed later. An entry whose only errors are such names is kept as <em>pending</em>: the
 * text joins the session, the production set stays at its last complete state until the names are
 * declared, and {@link #check} reports everything {@code acf check} would on the same text.
 * Warnings about the whole set (a replacement no production uses yet) wait for {@link #check}.
 */
final class Workspace {
  /** The display name of typed entries in diagnostics. */
  static final String TYPED = "<repl>";

  /** A loaded file: the path as typed, where it is, and its text as last read. */
  record Loaded(String shown, Path path, String text) {}

  /** The outcome of a change: accepted or not, and what to print. */
  record Outcome(boolean ok, String text) {}

  private final Frontend frontend = Frontend.standard();
  private final Path base;
  private List<Loaded> files = new ArrayList<>();
  private String typed = "";
  private ProductionSet set;
  private int version;

  /** The names typed entries use before declaring them (empty when the set is complete). */
  private List<Diagnostic> undeclared = List.of();

  /** Where the first pending entry starts in {@link #typed}: its warnings show once complete. */
  private int pendingFrom = -1;

  Workspace(Path base) {
    this.base = base;
  }

  /** Diagnostics are coloured in an interactive session on a colour terminal, never in scripts. */
  private boolean colour;

  void colour(boolean on) {
    colour = on;
  }

  /** The current good production set, or null when nothing was ever accepted. */
  ProductionSet set() {
    return set;
  }

  /** Grows by one with every accepted change (a running program can tell it is stale). */
  int version() {
    return version;
  }

  List<Loaded> files() {
    return List.copyOf(files);
  }

  String typed() {
    return typed;
  }

  boolean isEmpty() {
    return files.isEmpty() && typed.isEmpty();
  }

  /** The forward references still undeclared, as errors; empty when the set is complete. */
  List<Diagnostic> undeclared() {
    return undeclared;
  }

  /**
   * Every diagnostic of the session's text, as {@code acf check} reports it on the same text
   * (errors and warnings, each file's and the typed entries' own line numbers), and a count.
   */
  Outcome check() {
    if (isEmpty()) {
      return new Outcome(true, "no productions\n");
    }
    Compiled c = compile(files, typed);
    List<Diagnostic> all = new ArrayList<>();
    for (Diagnostic d : c.diags().sorted()) {
      all.add(remap(d, c.combined(), c.segments()));
    }
    StringBuilder out = new StringBuilder(DiagnosticRenderer.renderAll(all, colour));
    int e = c.diags().errorCount();
    int w = c.diags().warningCount();
    if (e + w > 0) {
      out.append(e)
          .append(e == 1 ? " error, " : " errors, ")
          .append(w)
          .append(w == 1 ? " warning\n" : " warnings\n");
    }
    if (e == 0 && c.lowered().isPresent()) {
      out.append("complete: ").append(describe(c.lowered().get())).append('\n');
    }
    return new Outcome(e == 0, out.toString());
  }

  /**
   * Adds typed productions or declarations. An item whose label or name the session already has
   * replaces the old one in place of adding a second (typed earlier, or in a loaded file, whose
   * text on disk stays as it is).
   */
  Outcome type(String entry) {
    return type(entry, false);
  }

  /**
   * As {@link #type(String)}; a {@code continuation} (the previous entry with one more line, as a
   * pasted file continues a replacement on its next line) replaces its earlier form silently.
   */
  Outcome type(String entry, boolean continuation) {
    String text = entry.endsWith("\n") ? entry : entry + "\n";
    List<String> keys = new ArrayList<>();
    for (ProductionEdits.Entry e : ProductionEdits.entries(text)) {
      if (!e.key().startsWith("import ") && !e.key().startsWith("use ")) {
        keys.add(e.key());
      }
    }
    StringBuilder said = new StringBuilder();
    String nextTyped = typed;
    List<Loaded> nextFiles = files;
    if (!keys.isEmpty()) {
      ProductionEdits.Cut cut = ProductionEdits.without(typed, keys);
      nextTyped = cut.text();
      for (String label : cut.removed()) {
        if (!continuation) {
          said.append("replaced ").append(label).append('\n');
        }
      }
      nextFiles = new ArrayList<>();
      for (Loaded l : files) {
        ProductionEdits.Cut c =
            l.path() == null
                ? new ProductionEdits.Cut(l.text(), List.of())
                : ProductionEdits.without(l.text(), keys);
        for (String label : c.removed()) {
          said.append("replaced ")
              .append(label)
              .append(" of ")
              .append(l.shown())
              .append(" (the file itself is unchanged)\n");
        }
        nextFiles.add(c.removed().isEmpty() ? l : new Loaded(l.shown(), l.path(), c.text()));
      }
    }
    Outcome o = attempt(nextFiles, nextTyped + text, TYPED, nextTyped.length());
    return o.ok() ? new Outcome(true, said + o.text()) : o;
  }

  /** The text of the top-level item named {@code label}: typed entries first, then files. */
  Optional<String> itemText(String label) {
    String key = label.toLowerCase(java.util.Locale.ROOT);
    List<String> texts = new ArrayList<>();
    texts.add(typed);
    for (int i = files.size() - 1; i >= 0; i--) {
      texts.add(files.get(i).text());
    }
    for (String t : texts) {
      for (ProductionEdits.Entry e : ProductionEdits.entries(t)) {
        if (e.key().equals(key)) {
          return Optional.of(e.text());
        }
      }
    }
    return Optional.empty();
  }

  /** The states before each accepted change, the latest last, for {@code :undo}. */
  private final java.util.ArrayDeque<State> history = new java.util.ArrayDeque<>();

  /** The session's productions at one moment. */
  record State(List<Loaded> files, String typed) {}

  /** Goes back to the state before the last accepted change. */
  Outcome undo() {
    if (history.isEmpty()) {
      throw new ReplError("nothing to undo");
    }
    State s = history.pop();
    if (s.files().isEmpty() && s.typed().isEmpty()) {
      clear();
      return new Outcome(true, "undone: no productions\n");
    }
    Outcome o = attempt(s.files(), s.typed(), null, 0, false);
    if (!o.ok()) {
      history.push(s);
    }
    return new Outcome(o.ok(), (o.ok() ? "undone: " : "") + o.text().replaceFirst("^ok: ", ""));
  }

  /** Adds a file. */
  Outcome load(String shown) {
    Path path = base.resolve(shown);
    if (!Files.exists(path) && shown.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
      // Not a file: a standard library module by its import name, imported as `import NAME;`
      // would (its text as a file of its own would check every block as a main file).
      if (ClasspathLibraryResolver.standard().resolve(shown).isEmpty()) {
        throw new ReplError(
            "cannot read " + shown + ": no such file or standard library module (:lib lists them)");
      }
      String text = "import " + shown + ";\n";
      for (Loaded l : files) {
        if (l.path() == null && l.shown().equals(shown)) {
          throw new ReplError(shown + " is already loaded");
        }
      }
      List<Loaded> next = new ArrayList<>(files);
      next.add(new Loaded(shown, null, text));
      return attempt(next, typed, shown, 0);
    }
    for (Loaded l : files) {
      if (l.path() != null && l.path().normalize().equals(path.normalize())) {
        throw new ReplError(shown + " is already loaded; :reload reads it again");
      }
    }
    List<Loaded> next = new ArrayList<>(files);
    next.add(new Loaded(shown, path, read(shown, path)));
    return attempt(next, typed, shown, 0);
  }

  /** Reads every loaded file again. */
  Outcome reload() {
    if (files.isEmpty()) {
      throw new ReplError("no file is loaded (:load FILE)");
    }
    List<Loaded> next = new ArrayList<>();
    for (Loaded l : files) {
      // A library module (no path) cannot have changed under the session.
      next.add(l.path() == null ? l : new Loaded(l.shown(), l.path(), read(l.shown(), l.path())));
    }
    return attempt(next, typed, null, 0);
  }

  /** Forgets every file and typed entry. */
  void reset() {
    history.push(new State(files, typed));
    clear();
  }

  /** No file, no typed entry, no production set: a new version. */
  private void clear() {
    files = new ArrayList<>();
    typed = "";
    set = null;
    undeclared = List.of();
    pendingFrom = -1;
    version++;
  }

  /** The session's ACF text: each file (as a comment and its text), then the typed entries. */
  String source() {
    StringBuilder sb = new StringBuilder();
    for (Loaded l : files) {
      sb.append("// ---- ").append(l.shown()).append('\n').append(terminated(l.text()));
    }
    if (!typed.isEmpty()) {
      if (!files.isEmpty()) {
        sb.append("// ---- ").append(TYPED).append('\n');
      }
      sb.append(typed);
    }
    return sb.toString();
  }

  private static String read(String shown, Path path) {
    if (!Files.isRegularFile(path)) {
      throw new ReplError("cannot read " + shown + ": no such file");
    }
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new ReplError("cannot read " + shown + ": " + e.getMessage());
    }
  }

  private static String terminated(String s) {
    return s.isEmpty() || s.endsWith("\n") ? s : s + "\n";
  }

  /** One part of the combined text and the source diagnostics should name instead. */
  private record Segment(SourceFile source, int start) {
    int end() {
      return start + source.text().length();
    }
  }

  /**
   * Compiles {@code nextFiles} and {@code nextTyped}; commits them on success. Errors are always
   * reported; warnings only from the segment named {@code warnFrom} at or after offset {@code
   * warnOffset} (what this change added), so old warnings do not repeat.
   */
  private Outcome attempt(
      List<Loaded> nextFiles, String nextTyped, String warnFrom, int warnOffset) {
    return attempt(nextFiles, nextTyped, warnFrom, warnOffset, true);
  }

  /** The session's text compiled: the combined source, its segments, and the outcome. */
  private record Compiled(
      SourceFile combined,
      List<Segment> segments,
      Diagnostics diags,
      Optional<ProductionSet> lowered) {}

  private Compiled compile(List<Loaded> nextFiles, String nextTyped) {
    StringBuilder all = new StringBuilder();
    List<Segment> segments = new ArrayList<>();
    for (Loaded l : nextFiles) {
      String t = terminated(l.text());
      segments.add(new Segment(new SourceFile(l.shown(), t), all.length()));
      all.append(t);
    }
    segments.add(new Segment(new SourceFile(TYPED, nextTyped), all.length()));
    all.append(nextTyped);
    SourceFile combined = new SourceFile("<session>", all.toString());
    // Relative imports resolve from the first file's folder, or from the working folder.
    Path anchor =
        nextFiles.isEmpty() || nextFiles.get(0).path() == null
            ? base.resolve(TYPED)
            : nextFiles.get(0).path();
    org.dise.compiler.Compiler.Compilation c =
        new org.dise.compiler.Compiler(frontend)
            .compile(List.of(new org.dise.compiler.Compiler.Input(combined, anchor)));
    return new Compiled(combined, segments, c.diagnostics(), c.productions());
  }

  /**
   * Errors that only say a name is not declared (yet): a typed production may name what a later
   * entry declares, as a file may.
   */
  private static final java.util.regex.Pattern FORWARD =
      java.util.regex.Pattern.compile(
          "(unknown (replacement|sink|counter|HPS register|constant|name|ACF block)"
              + "|undefined label) `.*");

  /** Whether a warning is about the set as a whole, which typing in file order passes through. */
  private static boolean wholeSet(Diagnostic d) {
    return d.message().endsWith("is not used by any production");
  }

  private Outcome attempt(
      List<Loaded> nextFiles, String nextTyped, String warnFrom, int warnOffset, boolean remember) {
    Compiled c = compile(nextFiles, nextTyped);
    Diagnostics diags = c.diags();
    Optional<ProductionSet> lowered = c.lowered();
    List<Diagnostic> errors = new ArrayList<>();
    List<Diagnostic> forward = new ArrayList<>();
    List<Diagnostic> warnings = new ArrayList<>();
    List<Diagnostic> shown = new ArrayList<>();
    // Warnings of entries that were pending show once the set is complete.
    int warnAt =
        pendingFrom >= 0 && TYPED.equals(warnFrom) ? Math.min(warnOffset, pendingFrom) : warnOffset;
    for (Diagnostic d : diags.sorted()) {
      Diagnostic m = remap(d, c.combined(), c.segments());
      if (m.severity() == Severity.ERROR) {
        boolean typedName =
            m.span().file().name().equals(TYPED) && FORWARD.matcher(m.message()).matches();
        (typedName ? forward : errors).add(m);
        shown.add(m);
      } else if (warnFrom != null
          && m.span().file().name().equals(warnFrom)
          && m.span().start() >= warnAt
          && !wholeSet(m)) {
        warnings.add(m);
        shown.add(m);
      }
    }
    if (errors.isEmpty() && !forward.isEmpty()) {
      // Pending: keep the text, keep the last complete set, say what is missing.
      StringBuilder out = new StringBuilder(DiagnosticRenderer.renderAll(warnings, colour));
      if (remember) {
        history.push(new State(files, typed));
      }
      if (pendingFrom < 0) {
        pendingFrom = TYPED.equals(warnFrom) ? warnOffset : 0;
      }
      files = new ArrayList<>(nextFiles);
      typed = nextTyped;
      undeclared = List.copyOf(forward);
      out.append("pending: ").append(missing(forward));
      out.append(set == null ? "; no production set yet" : "; the production set is unchanged")
          .append(" until then (:check shows every diagnostic)\n");
      return new Outcome(true, out.toString());
    }
    if (!errors.isEmpty() || lowered.isEmpty() || diags.errorCount() > 0) {
      StringBuilder out =
          new StringBuilder(
              DiagnosticRenderer.renderAll(shown.isEmpty() ? errorsOf(c) : shown, colour));
      int e = Math.max(1, diags.errorCount());
      out.append(e)
          .append(e == 1 ? " error" : " errors")
          .append("; the production set is unchanged\n");
      return new Outcome(false, out.toString());
    }
    StringBuilder out = new StringBuilder(DiagnosticRenderer.renderAll(shown, colour));
    if (remember) {
      history.push(new State(files, typed));
    }
    files = new ArrayList<>(nextFiles);
    typed = nextTyped;
    set = lowered.get();
    undeclared = List.of();
    pendingFrom = -1;
    version++;
    out.append("ok: ").append(describe(set)).append('\n');
    return new Outcome(true, out.toString());
  }

  private List<Diagnostic> errorsOf(Compiled c) {
    List<Diagnostic> out = new ArrayList<>();
    for (Diagnostic d : c.diags().sorted()) {
      if (d.severity() == Severity.ERROR) {
        out.add(remap(d, c.combined(), c.segments()));
      }
    }
    return out;
  }

  /** {@code `R1` (<repl>:1:26) is not declared yet}, one clause per name. */
  private static String missing(List<Diagnostic> forward) {
    List<String> parts = new ArrayList<>();
    for (Diagnostic d : forward) {
      String m = d.message();
      String what = m.substring(m.indexOf(' ') + 1, m.indexOf('`')).strip();
      String name = m.substring(m.indexOf('`'));
      parts.add(
          what
              + " "
              + name
              + " ("
              + d.span().file().name()
              + ":"
              + d.span().line()
              + ":"
              + d.span().column()
              + ")");
    }
    return String.join(", ", parts) + (parts.size() == 1 ? " is" : " are") + " not declared yet";
  }

  /** {@code 3 productions, 1 replacement sequence, sinks CallPair_handler}. */
  static String describe(ProductionSet s) {
    int p = s.productions().size();
    int r = s.replacements().size();
    StringBuilder sb = new StringBuilder();
    sb.append(p)
        .append(p == 1 ? " production, " : " productions, ")
        .append(r)
        .append(r == 1 ? " replacement sequence" : " replacement sequences");
    if (!s.sinks().isEmpty()) {
      sb.append(", sinks ");
      for (int i = 0; i < s.sinks().size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(s.sinks().get(i).name());
      }
    }
    return sb.toString();
  }

  private static Diagnostic remap(Diagnostic d, SourceFile combined, List<Segment> segments) {
    Span s = d.span();
    if (s.file() != combined) {
      return d; // a library file, or a built-in
    }
    Segment home = null;
    for (Segment g : segments) {
      if (s.start() >= g.start()
          && (s.start() < g.end() || home == null || !g.source().text().isEmpty())) {
        home = g; // the segment holding the span; at the very end, the last non-empty one
      }
    }
    if (home != null) {
      int start = Math.min(Math.max(0, s.start() - home.start()), home.source().text().length());
      String text = home.source().text();
      if (start == text.length() && start > 0 && text.charAt(start - 1) == '\n') {
        start--; // "unexpected end of file": point after the last line, not below it
      }
      int end = Math.max(start, Math.min(s.end() - home.start(), text.length()));
      return new Diagnostic(
          d.severity(), new Span(home.source(), start, end), d.message(), d.hint());
    }
    return d;
  }
}
