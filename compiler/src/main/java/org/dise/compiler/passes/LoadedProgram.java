package org.dise.compiler.passes;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;

/**
 * The parsed main file with every file it imports, transitively: for each file, the file each of
 * its {@code import} items names (absent when it could not be loaded), and the prelude.
 */
public record LoadedProgram(
    AcfFile main, Map<AcfFile, Map<Item.Import, AcfFile>> imports, Optional<AcfFile> prelude) {

  /** The files a file imports, keyed by the import item (identity maps: ASTs compare by value). */
  public Map<Item.Import, AcfFile> importsOf(AcfFile file) {
    Map<Item.Import, AcfFile> m = imports.get(file);
    return m == null ? new IdentityHashMap<>() : m;
  }

  public List<AcfFile> files() {
    return List.copyOf(imports.keySet());
  }
}
