package org.dise.compiler.passes;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;
import org.dise.compiler.diag.Diagnostics;

/** Pass "unused-replacements": warns of a replacement that no production in its scope names. */
public final class UnusedReplacementLint {
  public static final String NAME = "unused-replacements";

  private UnusedReplacementLint() {}

  public static void run(AcfFile file, Diagnostics diags) {
    scope(file.items(), diags);
  }

  private static void scope(List<Item> items, Diagnostics diags) {
    Set<String> used = new HashSet<>();
    for (Item i : items) {
      if (i instanceof Item.Production p) {
        p.replacement().ifPresent(n -> used.add(n.key()));
      } else if (i instanceof Item.AcfBlock b) {
        scope(b.body(), diags);
      }
    }
    for (Item i : items) {
      if (i instanceof Item.Replacement r && !used.contains(r.name().key())) {
        diags.warning(
            r.name().span(), "replacement `" + r.name().text() + "` is not used by any production");
      }
    }
  }
}
