package org.dise.runtime.dise;

import java.util.Arrays;
import org.dise.runtime.sink.CallSites;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ReturningSink;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.sink.SinkBinding;

/**
 * Checks a production set's calls against the catalogue before it runs (what the compiler checks at
 * line and column, for a configuration that did not come through it): the argument count each
 * component takes, one count per map, and results only from sinks that return one. Then tells the
 * sinks that want it ({@link CallSites}) which arguments are code addresses.
 */
final class CallCheck {
  private CallCheck() {}

  /**
   * @throws IllegalArgumentException naming the sequence, the sink and the problem
   */
  static void run(ProductionSet set, Sink[] sinks) {
    int n = sinks.length;
    int[] arity = new int[n];
    Arrays.fill(arity, -1);
    boolean[][] code = new boolean[n][];
    for (ReplacementSequence seq : set.replacements()) {
      for (ReplacementInsn r : seq.body()) {
        if (!(r instanceof ReplacementInsn.Call c)) {
          continue;
        }
        SinkBinding b = set.sinks().get(c.sink());
        String where =
            "replacement `" + seq.name() + "` calls sink `" + b.name() + "`, a " + b.component();
        ComponentSpec spec = Catalogue.find(b.component()).orElse(null);
        int args = c.args().size();
        if (spec != null) {
          if (spec.calls() == null) {
            throw new IllegalArgumentException(
                where
                    + ", which takes no calls"
                    + (spec.tagged() ? " (productions feed it with `tag(" + b.name() + ")`)" : ""));
          }
          if (args < spec.calls().min() || args > spec.calls().max()) {
            throw new IllegalArgumentException(
                where
                    + ", with "
                    + args
                    + " argument"
                    + (args == 1 ? "" : "s")
                    + "; it takes "
                    + spec.calls().describe());
          }
          if (spec.calls().keys() && arity[c.sink()] >= 0 && arity[c.sink()] != args) {
            throw new IllegalArgumentException(
                where
                    + ", with "
                    + args
                    + " arguments, but"
                    + " another call passes "
                    + arity[c.sink()]
                    + "; every call of a map passes the"
                    + " same key parts");
          }
        }
        if (c.returns() && !(sinks[c.sink()] instanceof ReturningSink)) {
          throw new IllegalArgumentException(
              where + " for a result, but a " + b.component() + " returns none (the maps do)");
        }
        if (arity[c.sink()] < 0) {
          arity[c.sink()] = args;
          code[c.sink()] = new boolean[args];
          for (int i = 0; i < args; i++) {
            code[c.sink()][i] = isCode(c.args().get(i));
          }
        } else {
          boolean[] k = code[c.sink()];
          for (int i = 0; i < Math.min(args, k.length); i++) {
            k[i] &= isCode(c.args().get(i));
          }
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (sinks[i] instanceof CallSites s && arity[i] >= 0) {
        s.callSites(arity[i], code[i]);
      }
    }
  }

  private static boolean isCode(ReplacementInsn.CallArg a) {
    if (a.insn()) {
      return false;
    }
    // symbol(NAME), bound or not: an address of the program, shown with its name.
    if (a.slot().symbol() != null) {
      return true;
    }
    if (a.slot().kind() != Slot.Kind.FIELD) {
      return false;
    }
    InsnField f = InsnField.values()[(int) a.slot().value()];
    return f == InsnField.PC || f == InsnField.TARGET || f == InsnField.NEXT_PC;
  }
}
