package org.dise.repl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dise.repl.common.Version;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Man pages (troff, section 1) written from picocli's command model: {@code acf.1} and one {@code
 * acf-COMMAND.1} per command, with the synopsis, description, options, parameters and the examples
 * of each command's help. picocli's own ManPageGenerator (picocli-codegen) writes AsciiDoc that
 * still needs Asciidoctor to become a man page; the model is small enough to write troff from
 * directly. {@link #main} also writes the shell completion scripts: the distribution's build runs
 * it ({@code completions/}, {@code man/man1/}).
 */
public final class ManPages {
  private ManPages() {}

  /** {@code ManPages DIR}: DIR/man/man1/*.1 and DIR/completions/{acf.bash,_acf}. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    Path man = Files.createDirectories(dir.resolve("man/man1"));
    CommandLine root = Cli.commandLine();
    write(man, "acf", root);
    for (var e : root.getSubcommands().entrySet()) {
      if (!e.getKey().equals("help")) {
        write(man, "acf-" + e.getKey(), e.getValue());
      }
    }
    Path completions = Files.createDirectories(dir.resolve("completions"));
    String script = CompletionCommand.script();
    Files.writeString(completions.resolve("acf.bash"), script, StandardCharsets.UTF_8);
    Files.writeString(completions.resolve("_acf"), script, StandardCharsets.UTF_8);
  }

  private static void write(Path man, String name, CommandLine cl) throws IOException {
    Files.writeString(man.resolve(name + ".1"), page(name, cl), StandardCharsets.UTF_8);
  }

  /** One page. */
  static String page(String name, CommandLine cl) {
    CommandSpec spec = cl.getCommandSpec();
    StringBuilder sb = new StringBuilder();
    sb.append(".TH ")
        .append(name.toUpperCase(Locale.ROOT))
        .append(" 1 \"\" \"")
        .append(esc(new Version().getVersion()[0]))
        .append("\" \"acf manual\"\n");
    sb.append(".SH NAME\n")
        .append(esc(name))
        .append(" \\- ")
        .append(esc(String.join(" ", spec.usageMessage().description())))
        .append('\n');
    sb.append(".SH SYNOPSIS\n.nf\n")
        .append(esc(cl.getHelp().synopsis(0).strip()))
        .append("\n.fi\n");
    if (!cl.getSubcommands().isEmpty()) {
      sb.append(".SH COMMANDS\n");
      for (var e : cl.getSubcommands().entrySet()) {
        String[] d = e.getValue().getCommandSpec().usageMessage().description();
        sb.append(".TP\n.B ")
            .append(esc(e.getKey()))
            .append('\n')
            .append(esc(d.length == 0 ? "" : d[0]))
            .append('\n');
      }
    }
    List<PositionalParamSpec> params = spec.positionalParameters();
    if (!params.isEmpty()) {
      sb.append(".SH ARGUMENTS\n");
      for (PositionalParamSpec p : params) {
        sb.append(".TP\n.I ")
            .append(esc(p.paramLabel()))
            .append('\n')
            .append(esc(String.join(" ", p.description())))
            .append('\n');
      }
    }
    List<OptionSpec> options = new ArrayList<>(spec.options());
    if (!options.isEmpty()) {
      sb.append(".SH OPTIONS\n");
      for (OptionSpec o : options) {
        if (o.hidden()) {
          continue;
        }
        sb.append(".TP\n.B ").append(esc(String.join(", ", o.names())));
        if (o.arity().max() > 0) {
          sb.append(" \\fI").append(esc(o.paramLabel())).append("\\fR");
        }
        sb.append('\n')
            .append(
                esc(
                    String.join(" ", o.description())
                        .replace("${DEFAULT-VALUE}", String.valueOf(o.defaultValue()))))
            .append('\n');
      }
    }
    String[] footer = spec.usageMessage().footer();
    if (footer.length > 0) {
      sb.append(".SH NOTES AND EXAMPLES\n.nf\n");
      for (String line : footer) {
        sb.append(esc(line)).append('\n');
      }
      sb.append(".fi\n");
    }
    sb.append(".SH SEE ALSO\nacf(1); the README, docs/ and spec/ of the distribution\n");
    return sb.toString();
  }

  /** Text for troff: backslashes doubled, a leading dot or quote escaped. */
  private static String esc(String s) {
    String t = Ansi.OFF.string(s).replace("\\", "\\e").replace("%%", "%");
    StringBuilder out = new StringBuilder();
    for (String line : t.split("\n", -1)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append(line.startsWith(".") || line.startsWith("'") ? "\\&" + line : line);
    }
    return out.toString();
  }
}
