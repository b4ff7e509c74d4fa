package org.dise.repl.shell;

import java.util.List;
import org.dise.runtime.timing.Core;
import org.dise.runtime.timing.TimingConfig;
import org.dise.runtime.timing.TimingRun;

/**
 * The REPL's {@code :timing}: measures what runs with a cycle-level timing model, as {@code acf run
 * --timing} (spec/timing.md), and shows its cycles, CPI and MPKIs.
 */
final class TimingCommands extends CommandGroup {

  TimingCommands(Debuggee program, StringBuilder out) {
    super(program, out);
  }

  @Override
  void register(CommandTable t) {
    t.add("timing", this::timing);
  }

  private void timing(List<String> a) {
    if (a.isEmpty()) {
      TimingRun t = program.timed();
      if (t == null) {
        out.append(
            program.timingConfig() == null
                ? "timing is off (:timing ooo or inorder turns it on)\n"
                : "timing " + program.timingConfig().model() + ": no program measured yet\n");
        return;
      }
      out.append(t.describe());
      return;
    }
    String model = a.get(0);
    if (model.equals("off")) {
      if (a.size() > 1) {
        throw new ReplError("usage: :timing off");
      }
      String when = program.timing(null);
      out.append("timing off").append(when).append('\n');
      return;
    }
    TimingConfig c;
    try {
      c = TimingConfig.defaults(model);
      for (String p : a.subList(1, a.size())) {
        int eq = p.indexOf('=');
        if (eq <= 0) {
          throw new ReplError("expected NAME=VALUE, found `" + p + "` (acf timing list)");
        }
        c.set(p.substring(0, eq), p.substring(eq + 1));
      }
      Core.of(c); // a geometry that cannot make a cache fails here
    } catch (IllegalArgumentException e) {
      throw new ReplError(":timing: " + e.getMessage());
    }
    String when = program.timing(c);
    out.append("timing ").append(model).append(when).append('\n');
  }
}
