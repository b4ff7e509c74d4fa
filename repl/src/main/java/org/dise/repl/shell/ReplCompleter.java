package org.dise.repl.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.dise.compiler.lib.StandardLibrary;
import org.dise.repl.common.AcfWords;
import org.dise.runtime.dise.InsnField;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.jline.builtins.Completers;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: command names; file names after {@code :load} and {@code :program}; the loaded
 * program's functions after {@code :break}, {@code :until}, {@code :disasm}, {@code :mem}, {@code
 * :delete}; and in productions the {@code T.*} fields, opcode classes, mnemonics, the language's
 * keywords and the standard library's names.
 */
final class ReplCompleter implements Completer {
  private final ReplSession session;
  private final Completer files = new Completers.FileNameCompleter();
  private final List<String> acfWords;

  ReplCompleter(ReplSession session) {
    this.session = session;
    this.acfWords = acfWords();
  }

  /** The words completed inside productions. */
  static List<String> acfWords() {
    TreeSet<String> w = new TreeSet<>();
    for (InsnField f : InsnField.values()) {
      w.add("T." + f.name());
    }
    w.add("T.INSN");
    for (OpClass c : OpClass.values()) {
      w.add(c.acfName());
    }
    for (Op op : Op.values()) {
      w.add(op.mnemonic());
    }
    w.add("on_trig_inst");
    w.add("off_trig_inst");
    w.addAll(AcfWords.KEYWORDS);
    w.addAll(AcfWords.HPS_REGISTERS);
    for (int i = 0; i < 8; i++) {
      for (String p : List.of("zero_", "overflow_", "inc_", "dec_", "set_")) {
        w.add(p + i);
      }
    }
    // Components and their parameters, from the one catalogue the compiler checks against.
    for (org.dise.runtime.sink.ComponentSpec c : org.dise.runtime.dise.Catalogue.all()) {
      w.add(c.name());
      w.addAll(c.paramNames());
      c.params().forEach(p -> w.addAll(p.choices()));
    }
    w.addAll(libraryNames());
    return new ArrayList<>(w);
  }

  /** The standard library's module names and the names they declare (sinks, blocks, ...). */
  static List<String> libraryNames() {
    List<String> names = new ArrayList<>();
    for (StandardLibrary.Module m : StandardLibrary.modules()) {
      names.add(m.name());
      names.addAll(m.names());
    }
    return names;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    List<String> words = line.words();
    String first = words.isEmpty() ? "" : words.get(0);
    if (line.wordIndex() == 0 && first.startsWith(":")) {
      for (String c : session.commandNames()) {
        candidates.add(new Candidate(c));
      }
      return;
    }
    if (first.startsWith(":")) {
      switch (first) {
        case ":load", ":program" -> {
          if (first.equals(":load") || line.wordIndex() == 1) {
            files.complete(reader, line, candidates);
          }
          if (first.equals(":load")) {
            StandardLibrary.moduleNames().forEach(n -> candidates.add(new Candidate(n)));
          }
        }
        case ":stdin", ":save", ":out" -> files.complete(reader, line, candidates);
        case ":allow" -> {
          if (line.wordIndex() == 1) {
            candidates.add(new Candidate("read"));
            candidates.add(new Candidate("write"));
          } else {
            files.complete(reader, line, candidates);
          }
        }
        case ":lib" -> StandardLibrary.moduleNames().forEach(n -> candidates.add(new Candidate(n)));
        case ":break", ":until", ":disasm", ":delete" -> {
          if (first.equals(":break") && line.wordIndex() == 1) {
            candidates.add(new Candidate("when"));
          }
          if (first.equals(":break") && line.wordIndex() >= 2 && words.get(1).equals("when")) {
            session.labels().forEach(l -> candidates.add(new Candidate(l)));
            for (String w :
                List.of("counter", "zero_0", "overflow_0", "pc", "==", "sink", "count")) {
              candidates.add(new Candidate(w));
            }
          }
          for (String s : session.symbolNames()) {
            candidates.add(new Candidate(s));
          }
        }
        case ":help" -> {
          for (String c : session.commandNames()) {
            candidates.add(new Candidate(c.substring(1)));
          }
        }
        case ":set" -> {
          if (line.wordIndex() == 1) {
            candidates.add(new Candidate("counter"));
            candidates.add(new Candidate("overflow"));
            candidates.add(new Candidate("reg"));
          }
        }
        case ":edit" -> session.labels().forEach(l -> candidates.add(new Candidate(l)));
        case ":mem" -> {
          for (String v :
              List.of("x/8xg", "x/4a", "x/s", "x/8xw", "x/16xb", "x/4dw", "$sp", "$pc", "$a0")) {
            candidates.add(new Candidate(v));
          }
          for (String s : session.symbolNames()) {
            candidates.add(new Candidate(s));
          }
        }
        case ":timing" -> {
          for (String t : List.of("inorder", "ooo", "off")) {
            candidates.add(new Candidate(t));
          }
          org.dise.runtime.timing.TimingConfig.PARAMETERS.forEach(
              p -> candidates.add(new Candidate(p.name() + "=")));
        }
        case ":trigger" -> {
          for (String t :
              List.of(
                  "exhaustive",
                  "periodic:",
                  "random:",
                  "phase",
                  "phase:first",
                  "phase:third",
                  "set",
                  "none",
                  "interval=",
                  "threshold=",
                  "buckets=",
                  "table=",
                  "predictor=",
                  "seed=")) {
            candidates.add(
                new Candidate(t, t, null, null, null, null, !t.endsWith(":") && !t.endsWith("=")));
          }
        }
        case ":sample" -> {
          candidates.add(new Candidate("on"));
          candidates.add(new Candidate("off"));
        }
        default -> {}
      }
      return;
    }
    for (String w : acfWords) {
      candidates.add(new Candidate(w));
    }
  }
}
