package org.dise.repl.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.dise.runtime.format.Callgrind;
import org.dise.runtime.format.Pprof;
import org.dise.runtime.format.StackProfile;
import org.dise.runtime.sink.ProfileTable;

/**
 * The files {@code --out DIR} writes for a profile with stacks (calling contexts, call pairs,
 * methods): NAME.folded, NAME.pb.gz (pprof), and for calling contexts also NAME.cycles.folded and
 * callgrind.out.NAME.
 */
public final class StackFiles {
  private StackFiles() {}

  public static void write(String name, ProfileTable t, Path dir) throws IOException {
    Optional<StackProfile> stacks = StackProfile.of(t);
    if (stacks.isEmpty()) {
      return;
    }
    StackProfile p = stacks.get();
    Files.writeString(dir.resolve(name + ".folded"), p.folded(0), StandardCharsets.UTF_8);
    Files.write(dir.resolve(name + ".pb.gz"), Pprof.gzipped(p, "acf profile " + name));
    if (p.types().size() > 1) {
      for (int i = 1; i < p.types().size(); i++) {
        Files.writeString(
            dir.resolve(name + "." + p.types().get(i).type() + ".folded"),
            p.folded(i),
            StandardCharsets.UTF_8);
      }
      Files.writeString(
          dir.resolve("callgrind.out." + name), Callgrind.write(p, name), StandardCharsets.UTF_8);
    }
  }
}
