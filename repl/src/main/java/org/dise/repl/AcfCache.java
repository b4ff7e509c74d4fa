package org.dise.repl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.dise.repl.common.Settings;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;

/**
 * The cache of compiled production sets behind {@code acf run --acf} (spec/acf-cache.md): a set the
 * compiler built with no diagnostic is kept as a deployable configuration, and a later run of the
 * same ACF text loads it without ANTLR or the compiler, which is most of the start-up a run under
 * an ACF pays over a plain run (docs/benchmarks.md, issue 14).
 *
 * <p>An entry is found by a hash of everything the compilation read that can change (its key
 * material): the build of acf (the jar's path, size and time, or the class folders' newest file),
 * the configuration format's version, and each ACF's path as typed, its absolute path and its
 * bytes. The entry holds that material and the text of every file the ACFs imported, and a run uses
 * it only if both are byte for byte what it reads now; library modules come with the build. An
 * entry that does not read back whole (a torn or damaged file, another version's layout) is a miss
 * and is replaced; entries are written to a temporary file and renamed, so concurrent runs read
 * either a whole entry or none.
 *
 * @param directory the folder holding the entries
 * @param build which build of acf is running ({@link #buildIdentity()}), part of every key
 */
record AcfCache(Path directory, String build) {
  /** {@code off}, or the folder of the cache; unset: the default folder. */
  static final String ENV = "ACF_CACHE";

  /** The most entries kept; the least recently used go first. */
  static final int MAX_ENTRIES = 256;

  private static final byte[] MAGIC = "ACFCACHE1\n".getBytes(StandardCharsets.US_ASCII);

  /**
   * The cache {@code $ACF_CACHE} names, or {@code $XDG_CACHE_HOME/acf/compiled} (else {@code
   * ~/.cache/acf/compiled}) when acf runs from its jar; null when it is off. From class folders
   * (the build's tests, an IDE) it is off unless {@code ACF_CACHE} names a folder, so that tests do
   * not write into the user's home.
   */
  static AcfCache standard() {
    String env = Settings.get(ENV);
    if ("off".equals(env)) {
      return null;
    }
    String build = buildIdentity();
    if (build == null) {
      return null;
    }
    if (env != null && !env.isEmpty()) {
      return new AcfCache(Path.of(env), build);
    }
    if (!build.startsWith("jar ")) {
      return null;
    }
    return new AcfCache(Settings.xdgFolder("XDG_CACHE_HOME", ".cache").resolve("compiled"), build);
  }

  /**
   * What was read to look an ACF list up: the key material (the build, the format's version, each
   * file's path as typed, absolute path and bytes), its hash (the entry's name), and each file's
   * bytes.
   */
  record Lookup(String key, byte[] material, List<byte[]> texts) {}

  /**
   * Reads the files and derives the key; null when a file cannot be read (the compiler says why).
   */
  Lookup lookup(List<Path> files) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(b);
      out.writeUTF(build);
      out.writeInt(ConfigFormat.VERSION);
      out.writeInt(files.size());
      List<byte[]> texts = new ArrayList<>();
      for (Path f : files) {
        byte[] text = Files.readAllBytes(f);
        texts.add(text);
        out.writeUTF(f.toString());
        out.writeUTF(f.toAbsolutePath().normalize().toString());
        out.writeInt(text.length);
        out.write(text);
      }
      out.flush();
      byte[] material = b.toByteArray();
      return new Lookup(name(material), material, texts);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The cached set for {@code lookup}, or null: no entry, an entry for other texts, an imported
   * file changed, or a damaged entry. The entry holds its key material and the imported files'
   * texts whole, and both are compared byte for byte, so the entry's name is only an index.
   */
  ProductionSet get(Lookup lookup) {
    Path entry = entry(lookup.key());
    try {
      byte[] bytes = Files.readAllBytes(entry);
      int body = bytes.length - 4;
      if (body < MAGIC.length
          || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
          || crc(bytes, body) != readInt(bytes, body)) {
        return null;
      }
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, body));
      in.skipNBytes(MAGIC.length);
      if (!Arrays.equals(in.readNBytes(in.readInt()), lookup.material())) {
        return null;
      }
      int imports = in.readInt();
      for (int i = 0; i < imports; i++) {
        Path file = Path.of(in.readUTF());
        byte[] text = in.readNBytes(in.readInt());
        if (!Files.isRegularFile(file) || !Arrays.equals(text, Files.readAllBytes(file))) {
          return null;
        }
      }
      byte[] config = in.readNBytes(in.readInt());
      ProductionSet set = ConfigFormat.fromBytes(config, entry.toString()).productions();
      touch(entry);
      return set;
    } catch (Exception e) {
      return null; // a miss: the set is compiled again and the entry replaced
    }
  }

  /**
   * Keeps {@code set}, compiled from {@code lookup}'s texts with the imported files {@code
   * imported} (absolute path and the text read); a cache that cannot be written is left alone.
   */
  void put(Lookup lookup, ProductionSet set, Map<Path, String> imported) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(b);
      out.write(MAGIC);
      out.writeInt(lookup.material().length);
      out.write(lookup.material());
      out.writeInt(imported.size());
      for (Map.Entry<Path, String> e : imported.entrySet()) {
        byte[] text = e.getValue().getBytes(StandardCharsets.UTF_8);
        out.writeUTF(e.getKey().toString());
        out.writeInt(text.length);
        out.write(text);
      }
      byte[] config = ConfigFormat.toBytes(new DeployableConfig("acf cache", set));
      out.writeInt(config.length);
      out.write(config);
      out.flush();
      byte[] body = b.toByteArray();
      out.writeInt(crc(body, body.length));
      out.flush();
      Files.createDirectories(directory);
      Path entry = entry(lookup.key());
      Path tmp = Files.createTempFile(directory, lookup.key(), ".tmp");
      try {
        Files.write(tmp, b.toByteArray());
        Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
      prune();
    } catch (IOException | RuntimeException e) {
      // A read-only or full disk: the run goes on, compiled as without a cache.
    }
  }

  /** Removes the least recently used entries beyond {@link #MAX_ENTRIES}. */
  private void prune() throws IOException {
    List<Path> entries;
    try (Stream<Path> s = Files.list(directory)) {
      entries = s.filter(p -> p.getFileName().toString().endsWith(".acfc")).toList();
    }
    if (entries.size() <= MAX_ENTRIES) {
      return;
    }
    Map<Path, FileTime> times = new LinkedHashMap<>();
    for (Path p : entries) {
      try {
        times.put(p, Files.getLastModifiedTime(p));
      } catch (IOException e) {
        // removed by a concurrent run
      }
    }
    times.entrySet().stream()
        .sorted(Map.Entry.comparingByValue())
        .limit(Math.max(0, times.size() - MAX_ENTRIES))
        .forEach(
            e -> {
              try {
                Files.deleteIfExists(e.getKey());
              } catch (IOException ignored) {
                // a concurrent run removed or uses it
              }
            });
  }

  Path entry(String key) {
    return directory.resolve(key + ".acfc");
  }

  private static void touch(Path entry) {
    try {
      Files.setLastModifiedTime(entry, FileTime.fromMillis(System.currentTimeMillis()));
    } catch (IOException | RuntimeException e) {
      // a read-only cache still serves
    }
  }

  /**
   * Which build of acf is running: the path, size and time of each jar that holds a module which
   * shapes a compiled set (one for ./acf's shaded jar, several in the distribution's lib/), or,
   * from class folders, each folder with its newest file's time and its file count. A rebuilt
   * compiler, library or engine changes it, so an entry another build wrote is never used. Null
   * when it cannot be told.
   */
  static String buildIdentity() {
    if (AcfCache.class.getClassLoader() == ClassLoader.getSystemClassLoader()) {
      String one = singleJar(System.getProperty("java.class.path", ""));
      if (one != null) {
        return one;
      }
    }
    StringBuilder id = new StringBuilder();
    ClassLoader loader = AcfCache.class.getClassLoader();
    // One resource of each module that shapes a compiled set.
    String[] anchors = {
      "org/dise/repl/AcfCache.class",
      "org/dise/compiler/Compiler.class",
      "org/dise/runtime/dise/config/ConfigFormat.class",
      "org/dise/runtime/isa/Op.class", // runtime/isa
      "org/dise/runtime/isa/PseudoInstruction.class", // runtime/emulator
      "org/dise/runtime/dise/Catalogue.class",
      "org/dise/runtime/profiles/sink/LongCounters.class",
      "org/dise/grammar/AcfParser.class",
      "acf/prelude.acf",
    };
    try {
      List<String> seen = new ArrayList<>();
      for (String anchor : anchors) {
        URL url = loader.getResource(anchor);
        if (url == null) {
          return null;
        }
        String u = url.toString();
        if (u.startsWith("jar:file:")) {
          Path jar = Path.of(new java.net.URI(u.substring(4, u.indexOf("!/"))));
          if (!seen.contains(jar.toString())) {
            seen.add(jar.toString());
            id.append(id.length() == 0 ? "jar " : " ; jar ")
                .append(jar)
                .append(' ')
                .append(Files.size(jar))
                .append(' ')
                .append(Files.getLastModifiedTime(jar).toMillis());
          }
        } else if (u.startsWith("file:")) {
          Path file = Path.of(url.toURI());
          Path root = file;
          for (int i = anchor.split("/").length; i > 0; i--) {
            root = root.getParent();
          }
          if (!seen.contains(root.toString())) {
            seen.add(root.toString());
            id.append(id.length() == 0 ? "dir " : " ; dir ").append(root).append(' ');
            newest(root, id);
          }
        } else {
          return null;
        }
      }
      return id.toString();
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The identity of a class path that is one jar (./acf's {@code java -jar}), in the form {@link
   * #buildIdentity} gives it, without asking the class loader for each anchor: every module is in
   * that jar, and the first resource lookup through a jar URL cost a run about 10 ms of start-up.
   * Null for any other class path (class folders, the distribution's lib/).
   */
  static String singleJar(String classPath) {
    if (classPath.isEmpty()
        || classPath.contains(java.io.File.pathSeparator)
        || !classPath.endsWith(".jar")) {
      return null;
    }
    try {
      Path jar = Path.of(classPath).toAbsolutePath().normalize();
      java.nio.file.attribute.BasicFileAttributes a =
          Files.readAttributes(jar, java.nio.file.attribute.BasicFileAttributes.class);
      if (!a.isRegularFile()) {
        return null;
      }
      return "jar " + jar + ' ' + a.size() + ' ' + a.lastModifiedTime().toMillis();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static void newest(Path root, StringBuilder id) throws IOException {
    long newest = 0;
    long count = 0;
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        newest = Math.max(newest, Files.getLastModifiedTime(p).toMillis());
        count++;
      }
    }
    id.append(newest).append(' ').append(count);
  }

  /**
   * A 128-bit name for key material: two 64-bit FNV-1a variants, finished with SplitMix64's mixer.
   * Not cryptographic and need not be: {@link #get} compares the material itself. (MessageDigest's
   * provider set-up alone cost a run's start-up about 20 ms.)
   */
  static String name(byte[] material) {
    long a = 0xcbf29ce484222325L;
    long b = 0x84222325cbf29ce4L;
    for (byte x : material) {
      a = (a ^ (x & 0xff)) * 0x100000001b3L;
      b = (b ^ (x & 0xff)) * 0x100000001b3L + 0x9e3779b97f4a7c15L;
    }
    return HexFormat.of().toHexDigits(mix(a ^ material.length))
        + HexFormat.of().toHexDigits(mix(b));
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static int crc(byte[] b, int length) {
    CRC32 crc = new CRC32();
    crc.update(b, 0, length);
    return (int) crc.getValue();
  }

  private static int readInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24)
        | ((b[at + 1] & 0xff) << 16)
        | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }
}
