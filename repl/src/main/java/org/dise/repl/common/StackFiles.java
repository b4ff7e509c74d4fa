package org.dise.repl.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.format.Callgrind;
import org.dise.runtime.format.PcWeights;
import org.dise.runtime.format.Pprof;
import org.dise.runtime.format.StackProfile;
import org.dise.runtime.sink.ProfileTable;

/**
 * The files {@code --out DIR} writes for a profile with stacks (calling contexts, call pairs,
 * methods): NAME.folded, NAME.pb.gz (pprof), and for calling contexts also NAME.cycles.folded and
 * callgrind.out.NAME; for a profile keyed by single code addresses (T.PC) of a program built with
 * {@code -g}, callgrind.out.NAME with its weight per source line.
 */
public final class StackFiles {
  private StackFiles() {}

  public static void write(String name, ProfileTable t, Path dir, SymbolTable symbols)
      throws IOException {
    Optional<StackProfile> stacks = StackProfile.of(t);
    if (stacks.isEmpty()) {
      // A profile keyed by pcs of a program with line tables: its weight per source line.
      Optional<String> lines =
          PcWeights.of(t).flatMap(w -> Callgrind.ofLines(w, t.weight(), name, symbols));
      if (lines.isPresent()) {
        Files.writeString(
            dir.resolve("callgrind.out." + name), lines.get(), StandardCharsets.UTF_8);
      }
      return;
    }
    StackProfile p = stacks.get();
    Files.writeString(dir.resolve(name + ".folded"), p.folded(0), StandardCharsets.UTF_8);
    Files.write(dir.resolve(name + ".pb.gz"), Pprof.gzipped(p, "acf profile " + name, symbols));
    if (p.types().size() > 1) {
      for (int i = 1; i < p.types().size(); i++) {
        Files.writeString(
            dir.resolve(name + "." + p.types().get(i).type() + ".folded"),
            p.folded(i),
            StandardCharsets.UTF_8);
      }
      Files.writeString(
          dir.resolve("callgrind.out." + name),
          Callgrind.write(p, name, symbols),
          StandardCharsets.UTF_8);
    }
  }
}
