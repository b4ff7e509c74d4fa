package org.dise.repl.shell;

import java.util.List;
import java.util.Map;
import org.dise.repl.common.RunService;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.trigger.PhaseAwareTrigger;
import org.dise.runtime.trigger.PhaseTable;
import org.dise.runtime.trigger.PhaseTracker;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * The REPL's trigger commands, one group of the session's commands: {@code :trigger} (the
 * strategies and parameters of {@code acf run --sampling}, checked by the same {@link RunService})
 * and {@code :phases} (the running trigger's intervals and phase tracker).
 */
final class TriggerCommands extends CommandGroup {
  private static final int PHASE_TRACE_SHOWN = 10;

  TriggerCommands(Debuggee program, StringBuilder out) {
    super(program, out);
  }

  @Override
  void register(CommandTable t) {
    t.add("trigger", this::trigger);
    t.addNoArgs("phases", this::phases);
  }

  void trigger(List<String> args) {
    if (args.isEmpty()) {
      TriggerSpec t = program.effectiveTrigger();
      if (t == null) {
        out.append(
            program.triggerOff
                ? "no trigger (:trigger none)\n"
                : "no trigger: the sampling flag is what the productions make it\n");
        return;
      }
      out.append("trigger ")
          .append(t.describe())
          .append(program.triggerSet == null ? " (the ACF's)" : "")
          .append(", interval ")
          .append(String.format("%,d", t.interval()));
      t.params().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .filter(p -> !p.getKey().equals("interval"))
          .forEach(p -> out.append(", ").append(p.getKey()).append('=').append(p.getValue()));
      out.append('\n');
      return;
    }
    if (args.size() == 1 && args.get(0).equals("none")) {
      program.triggerOff = true;
      program.triggerSet = null;
      out.append("no trigger").append(program.applyBeforeStart()).append('\n');
      return;
    }
    TriggerSpec spec;
    List<String> params;
    try {
      if (args.get(0).equals("set")) {
        spec = program.effectiveTrigger();
        if (spec == null) {
          throw new ReplError("no trigger to change (:trigger STRATEGY first)");
        }
        params = args.subList(1, args.size());
        if (params.isEmpty()) {
          throw new ReplError("usage: :trigger set NAME=VALUE...");
        }
      } else {
        spec = TriggerSpec.parse(args.get(0));
        params = args.subList(1, args.size());
      }
      for (String p : params) {
        int eq = p.indexOf('=');
        if (eq <= 0) {
          throw new ReplError("'" + p + "' is not NAME=VALUE");
        }
        spec = RunService.tune(spec, p.substring(0, eq), p.substring(eq + 1), "interval");
      }
    } catch (IllegalArgumentException x) {
      throw new ReplError("trigger: " + x.getMessage());
    }
    RunService.checkTrigger(spec, "trigger: ");
    if (spec.needsFirstPass()) {
      throw new ReplError(
          "trigger "
              + spec.describe()
              + " is an oracle that needs a first pass"
              + " over the program; use acf run --sampling for it");
    }
    program.triggerSet = spec;
    program.triggerOff = false;
    out.append("trigger ")
        .append(spec.describe())
        .append(", interval ")
        .append(String.format("%,d", spec.interval()))
        .append(program.applyBeforeStart())
        .append('\n');
  }

  void phases() {
    TriggerDriver d = program.driver();
    if (d == null) {
      throw new ReplError("no trigger is running (:trigger sets one, then :program or :run)");
    }
    TriggerSpec effective = program.effectiveTrigger();
    String name = effective == null ? d.trigger().component() : effective.describe();
    if (d.finished()) {
      out.append(
          String.format(
              "trigger %s, interval %,d: the run ended after %,d intervals,"
                  + " %,d sampled (%.1f%% of the instructions)%n",
              name,
              d.trigger().interval(),
              d.intervals(),
              d.sampledIntervals(),
              100 * d.sampledFraction()));
    } else {
      out.append(
          String.format(
              "trigger %s, interval %,d: %,d intervals done; interval %,d is"
                  + " %s, %,d instructions in%n",
              name,
              d.trigger().interval(),
              d.intervals(),
              d.intervals(),
              d.sampling() ? "sampled" : "not sampled",
              d.intoInterval()));
    }
    if (d.trigger() instanceof PhaseAwareTrigger p) {
      PhaseTracker t = p.tracker();
      out.append(
          String.format(
              "phase tracker: %d phases, next interval predicted %s,"
                  + " prediction accuracy %.1f%%%n",
              t.phaseCount(),
              t.intervals() == 0 ? "-" : Integer.toString(t.predictedNext()),
              100 * t.predictionAccuracy()));
      List<PhaseTable.Row> rows = p.table().rows();
      out.append(String.format("phase table (%d of %d entries):%n", rows.size(), p.table().size()));
      out.append("  phase  sampled  intervals\n");
      for (PhaseTable.Row r : rows) {
        out.append(
            String.format("  %5d  %-7s  %,9d%n", r.phase(), r.sampled() ? "yes" : "no", r.count()));
      }
      long n = t.intervals();
      if (n > 0) {
        out.append("last intervals (interval phase predicted sampled):\n");
        for (long i = Math.max(0, n - PHASE_TRACE_SHOWN); i < n; i++) {
          out.append(
              String.format(
                  "  %5d  %5d  %9s  %s%n",
                  i,
                  t.phase(i),
                  t.predicted(i) < 0 ? "-" : Integer.toString(t.predicted(i)),
                  d.sampled(i) ? "yes" : "no"));
        }
      }
    }
  }
}
