package org.dise.repl.common;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * acf's own state, which every guest's sandbox keeps out of reach for changes even inside its
 * writable directories (issue 31; spec/emulator.md, "File sandbox"): a guest that could write the
 * spool could plant a part the device uploads with its own token, one that could write the ACF
 * cache or acf's jar, productions or code a later run loads.
 */
public final class AcfState {
  /** The environment variable naming the ACF cache's folder (or {@code off}). */
  static final String CACHE_ENV = "ACF_CACHE";

  private AcfState() {}

  /**
   * The ACF cache (its default folder and {@code $ACF_CACHE}), the state folder that holds the
   * default spool (and the old {@code ~/.acf}), and the folder acf runs from (its jar and the
   * class-data archive beside it, or its class folder).
   */
  public static List<Path> paths() {
    List<Path> out = new ArrayList<>();
    String home = System.getProperty("user.home");
    String xdg = System.getenv("XDG_CACHE_HOME");
    out.add(
        (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
                ? Path.of(xdg)
                : Path.of(home, ".cache"))
            .resolve("acf"));
    String cache = Settings.get(CACHE_ENV);
    if (cache != null && !cache.isBlank() && !"off".equals(cache)) {
      out.add(Path.of(cache));
    }
    out.add(org.dise.center.Spool.defaultDir().getParent());
    out.add(Path.of(home, ".acf"));
    try {
      java.security.CodeSource code = AcfState.class.getProtectionDomain().getCodeSource();
      if (code != null) {
        Path where = Path.of(code.getLocation().toURI());
        out.add(Files.isDirectory(where) ? where : where.getParent());
      }
    } catch (java.net.URISyntaxException | IllegalArgumentException | SecurityException e) {
      // no file location (an unusual class loader): nothing of ours to protect there
    }
    return out;
  }
}
