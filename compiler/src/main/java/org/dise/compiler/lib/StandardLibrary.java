package org.dise.compiler.lib;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dise.compiler.diag.SourceFile;

/**
 * What the standard library (the stdlib-acfs resources {@code acf/*.acf}) offers, for listings and
 * completion: its modules, each module's summary (its first comment line) and the names it
 * declares.
 */
public final class StandardLibrary {
  private StandardLibrary() {}

  /** One module: its import name, the first line of its header comment, its declared names. */
  public record Module(String name, String summary, List<String> blocks, List<String> names) {}

  private static final Pattern BLOCK =
      Pattern.compile("(?m)^\\s*acf\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*(\\([^)]*\\))?");
  private static final Pattern DECL =
      Pattern.compile(
          "(?m)^\\s*(?:sink|trigger|acf|counter|register|const)\\s+([A-Za-z_][A-Za-z0-9_]*)");

  private static List<String> names; // the classpath does not change while the JVM runs

  /** The import names of every module on the classpath, sorted (dots for sub-folders). */
  public static synchronized List<String> moduleNames() {
    if (names == null) {
      names = List.copyOf(scan());
    }
    return names;
  }

  private static List<String> scan() {
    TreeSet<String> names = new TreeSet<>();
    URL anchor = StandardLibrary.class.getClassLoader().getResource("acf/prelude.acf");
    if (anchor == null) {
      return List.of();
    }
    try {
      URI uri = anchor.toURI();
      if (uri.getScheme().equals("jar")) {
        FileSystem fs;
        try {
          fs = FileSystems.newFileSystem(uri, Map.of());
        } catch (FileSystemAlreadyExistsException e) {
          fs = FileSystems.getFileSystem(uri);
        }
        collect(fs.getPath("/acf"), names);
      } else {
        collect(Path.of(uri).getParent(), names);
      }
    } catch (IOException | URISyntaxException | RuntimeException e) {
      // An unreadable classpath leaves the listing empty; imports still resolve one by one.
    }
    return new ArrayList<>(names);
  }

  private static void collect(Path root, TreeSet<String> names) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(p -> p.toString().endsWith(".acf"))
          .forEach(
              p -> {
                String rel = root.relativize(p).toString().replace('/', '.');
                names.add(rel.substring(0, rel.length() - ".acf".length()));
              });
    }
  }

  /** A module by import name, or empty when the library has none such. */
  public static Optional<Module> module(String name) {
    Optional<SourceFile> f = ClasspathLibraryResolver.standard().resolve(name);
    return f.map(s -> describe(name, s.text()));
  }

  /** Every module, sorted by name. */
  public static List<Module> modules() {
    List<Module> out = new ArrayList<>();
    for (String n : moduleNames()) {
      module(n).ifPresent(out::add);
    }
    return out;
  }

  static Module describe(String name, String text) {
    // The summary is the first sentence of the header comment.
    StringBuilder header = new StringBuilder();
    for (String line : text.split("\n")) {
      String t = line.strip();
      if (!t.startsWith("//")) {
        if (t.isEmpty() && header.length() == 0) {
          continue;
        }
        break;
      }
      header.append(header.length() == 0 ? "" : " ").append(t.substring(2).strip());
    }
    String summary = header.toString();
    int stop = summary.indexOf(". ");
    if (stop >= 0) {
      summary = summary.substring(0, stop + 1);
    }
    List<String> blocks = new ArrayList<>();
    Matcher b = BLOCK.matcher(text);
    while (b.find()) {
      blocks.add(b.group(1) + (b.group(2) == null ? "" : b.group(2).replaceAll("\\s+", " ")));
    }
    List<String> names = new ArrayList<>();
    Matcher d = DECL.matcher(text);
    while (d.find()) {
      names.add(d.group(1));
    }
    return new Module(name, summary, blocks, names);
  }
}
