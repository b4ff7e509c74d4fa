package org.dise.repl.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.dise.compiler.lib.StandardLibrary;
import org.dise.repl.common.RunService;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.ConfigPrinter;
import org.dise.runtime.dise.config.DeployableConfig;

/**
 * The REPL's production commands, one group of the session's commands: {@code :load}, {@code :lib},
 * {@code :reload}, {@code :undo}, {@code :diff}, {@code :edit}, {@code :show}, {@code :reset},
 * {@code :tables} and {@code :save} over the session's {@link Workspace}, and the typed entries
 * ({@link #submit}).
 */
final class ProductionCommands extends CommandGroup {
  private final Workspace workspace;

  /** Counts a refused change as a command's error (the diagnostics are already printed). */
  private final Runnable failed;

  private String editor;
  private String editBuffer;

  ProductionCommands(Workspace workspace, Debuggee program, StringBuilder out, Runnable failed) {
    super(program, out);
    this.workspace = workspace;
    this.failed = failed;
  }

  @Override
  void register(CommandTable t) {
    t.add("load", this::load);
    t.add("lib", this::lib);
    t.addNoArgs("reload", this::reload);
    t.addNoArgs("undo", () -> report(workspace.undo()));
    t.addNoArgs("diff", this::diff);
    t.add("edit", this::edit);
    t.addNoArgs("show", this::show);
    t.addNoArgs("reset", this::reset);
    t.addNoArgs("check", this::check);
    t.addNoArgs("tables", this::tables);
    t.add("save", this::save);
  }

  private void reload() {
    Workspace.Outcome o = workspace.reload();
    report(o);
    if (o.ok() && program.pausedMidRun() && program.behind()) {
      program.apply(); // :reload of files is a hot reload too
    }
  }

  private void show() {
    out.append(workspace.isEmpty() ? "(no productions)\n" : workspace.source());
  }

  private void reset() {
    workspace.reset();
    out.append("productions cleared\n");
  }

  private void check() {
    Workspace.Outcome o = workspace.check();
    out.append(o.text());
    if (!o.ok()) {
      failed.run();
    }
  }

  /** A typed entry: compiled with the session's productions, replacing an item of its label. */
  void submit(String entry) {
    submit(entry, false);
  }

  /** A typed entry; a {@code continuation} replaces the previous entry's earlier form quietly. */
  boolean submit(String entry, boolean continuation) {
    if (entry.isBlank()) {
      return false;
    }
    Workspace.Outcome o = workspace.type(entry, continuation);
    report(o);
    return o.ok();
  }

  private void report(Workspace.Outcome o) {
    out.append(o.text());
    if (!o.ok()) {
      failed.run();
    } else if (program.pausedMidRun()) {
      out.append(
          "(the paused program runs the previous productions: :apply installs these,"
              + " :run starts it again with them)\n");
    }
  }

  void load(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :load FILE|MODULE");
    }
    Workspace.Outcome o = workspace.load(args.get(0));
    report(o);
    boolean module =
        o.ok()
            && workspace.files().stream()
                .anyMatch(l -> l.path() == null && l.shown().equals(args.get(0)));
    if (module) {
      StandardLibrary.module(args.get(0))
          .ifPresent(
              m -> {
                out.append("imported library module ")
                    .append(m.name())
                    .append(" (as `import ")
                    .append(m.name())
                    .append(";`)");
                if (!m.blocks().isEmpty()) {
                  out.append("; `use BLOCK;` activates one of its blocks:\n");
                  m.blocks().forEach(b -> out.append("  ").append(b).append('\n'));
                } else {
                  out.append('\n');
                }
              });
    }
  }

  void lib(List<String> args) {
    if (args.size() > 1) {
      throw new ReplError("usage: :lib [MODULE]");
    }
    if (args.isEmpty()) {
      List<StandardLibrary.Module> mods = StandardLibrary.modules();
      int w = mods.stream().mapToInt(m -> m.name().length()).max().orElse(0);
      for (StandardLibrary.Module m : mods) {
        out.append(String.format("  %-" + w + "s  %s%n", m.name(), m.summary()));
      }
      out.append(mods.size())
          .append(mods.size() == 1 ? " module" : " modules")
          .append("; :lib MODULE shows one\n");
      return;
    }
    StandardLibrary.Module m =
        StandardLibrary.module(args.get(0))
            .orElseThrow(
                () ->
                    new ReplError(
                        "no standard library module `" + args.get(0) + "` (:lib lists them)"));
    out.append(m.name()).append(": ").append(m.summary()).append('\n');
    if (!m.blocks().isEmpty()) {
      out.append("blocks:\n");
      for (String b : m.blocks()) {
        out.append("  ").append(b).append('\n');
      }
    }
    List<String> others =
        m.names().stream()
            .filter(n -> m.blocks().stream().noneMatch(b -> b.equals(n) || b.startsWith(n + "(")))
            .distinct() // several blocks declare the same counter name
            .toList();
    if (!others.isEmpty()) {
      out.append("names: ").append(String.join(", ", others)).append('\n');
    }
    out.append("use it: import ").append(m.name()).append(";\n");
  }

  void tables() {
    ProductionSet s = program.requireSet();
    String text = ConfigPrinter.describe(new DeployableConfig("<session>", s), 0);
    // Skip the two lines about a configuration file; there is none.
    int from = text.indexOf("budget:");
    out.append(from < 0 ? text : text.substring(from));
  }

  /** {@code :save FILE}: as {@code acf compile -o FILE}, with its budget check and errors. */
  void save(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :save FILE");
    }
    ProductionSet s = program.requireSet();
    RunService.checkBudget(s, "");
    String source =
        workspace.files().isEmpty()
            ? "repl"
            : workspace.files().get(0).path() == null
                ? workspace.files().get(0).shown()
                : workspace.files().get(0).path().getFileName().toString();
    RunService.writeConfig(new DeployableConfig(source, s), program.path(args.get(0)), args.get(0));
    out.append("saved ")
        .append(args.get(0))
        .append(": ")
        .append(Workspace.describe(s))
        .append('\n');
  }

  void diff() {
    if (program.runSource() == null) {
      throw new ReplError(
          "no program has run yet (:program, :run); :show prints the" + " productions");
    }
    List<String> lines = ProductionEdits.diff(program.runSource(), workspace.source());
    if (lines.isEmpty()) {
      out.append("no changes since the program started with these productions\n");
      return;
    }
    lines.forEach(l -> out.append(l).append('\n'));
  }

  /** The shell command :edit runs on a temporary file ($EDITOR), or null: edit in place. */
  void editor(String command) {
    this.editor = command;
  }

  /** The text :edit left for the next input line to start from, once. */
  String takeEditBuffer() {
    String b = editBuffer;
    editBuffer = null;
    return b;
  }

  void edit(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :edit LABEL");
    }
    String text =
        workspace
            .itemText(args.get(0))
            .orElseThrow(
                () ->
                    new ReplError(
                        "no production or declaration named "
                            + args.get(0)
                            + " (:show lists them)"));
    if (editor == null) {
      // One line to edit: a multi-line item is joined (the language does not care).
      String line = text.replaceAll("\\s*\n\\s*", " ");
      editBuffer = line;
      out.append(line)
          .append('\n')
          .append("(edit it as the next line; an entry with the same label replaces it)\n");
      return;
    }
    edited(text, this::submit);
  }

  /** Runs the editor on {@code text} in a temporary file and hands on what it left, if changed. */
  private void edited(String text, Consumer<String> then) {
    Path tmp = null;
    try {
      tmp = Files.createTempFile("acf-edit-", ".acf");
      Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
      Process p =
          new ProcessBuilder("sh", "-c", editor + " \"$0\"", tmp.toString()).inheritIO().start();
      int status = p.waitFor();
      if (status != 0) {
        throw new ReplError(
            "the editor (" + editor + ") exited with status " + status + "; nothing changed");
      }
      String edited = Files.readString(tmp, StandardCharsets.UTF_8);
      if (edited.strip().equals(text.strip())) {
        out.append("unchanged\n");
        return;
      }
      then.accept(edited);
    } catch (IOException e) {
      throw new ReplError("cannot run the editor (" + editor + "): " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ReplError("interrupted while the editor ran; nothing changed");
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // a temporary file left behind is harmless
        }
      }
    }
  }
}
