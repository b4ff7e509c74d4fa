package org.dise.runtime.linux;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.FileSystem;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Host file names as the bytes the Linux kernel stores. Java 17 turns a String into a file name
 * with the locale's charset ({@code sun.jnu.encoding}, fixed at start-up: {@code -D} cannot change
 * it), so under {@code LC_ALL=C} a byte above 0x7f cannot be named at all and under UTF-8 a name
 * that is not UTF-8 cannot be named exactly. The JDK's own {@code UnixPath} keeps the bytes, so
 * when the launcher opens {@code java.base/sun.nio.fs} to us ({@code Add-Opens} in acf.jar's
 * manifest, {@code --add-opens} in the other launchers and the tests) paths are built from and read
 * back as bytes. Otherwise names go through the locale's charset, and a name it cannot hold is
 * refused with EILSEQ (spec/emulator.md, "File names, arguments and environment").
 */
public final class HostNames {
  private static final FileSystem FS = Path.of("/").getFileSystem();

  /**
   * {@code new UnixPath(UnixFileSystem, byte[])} and {@code UnixPath.asByteArray()}, or null. Core
   * reflection rather than method handles: on JDK 17 adapting the handles (asType, invokeExact)
   * spun lambda forms at run time, 3-10 ms of every start-up, where reflection takes under 1 ms.
   */
  private static final Constructor<?> FROM_BYTES;

  private static final Method TO_BYTES;
  private static final Charset JNU = jnuCharset();

  static {
    Constructor<?> from = null;
    Method to = null;
    try {
      Class<?> unixPath = Class.forName("sun.nio.fs.UnixPath");
      Class<?> unixFs = Class.forName("sun.nio.fs.UnixFileSystem");
      if (unixFs.isInstance(FS) && unixPath.isInstance(Path.of("/"))) {
        from = unixPath.getDeclaredConstructor(unixFs, byte[].class);
        to = unixPath.getDeclaredMethod("asByteArray");
        from.setAccessible(true); // throws unless the package is opened to us
        to.setAccessible(true);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      from = null; // not opened to us, or not the JDK we know: the charset path below
      to = null;
    }
    FROM_BYTES = from;
    TO_BYTES = to;
  }

  private HostNames() {}

  /** True when every byte string can be named exactly (the JDK's path class is open to us). */
  public static boolean exact() {
    return FROM_BYTES != null;
  }

  /**
   * The host path named by {@code name} (no NUL), with repeated and trailing slashes dropped as the
   * JDK does for a String.
   *
   * @throws CharacterCodingException when the host cannot name it exactly (see the class comment)
   */
  public static Path path(byte[] name) throws CharacterCodingException {
    byte[] n = normalize(name);
    if (FROM_BYTES != null) {
      try {
        return (Path) FROM_BYTES.newInstance(FS, n);
      } catch (ReflectiveOperationException | IllegalArgumentException e) {
        throw new IllegalStateException("cannot build a path from bytes", e);
      }
    }
    String s =
        JNU.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(n))
            .toString();
    try {
      return Path.of(s);
    } catch (InvalidPathException e) {
      throw new CharacterCodingException();
    }
  }

  /** The host path named by a guest String (see {@link SurrogateEscape}). */
  public static Path path(String guestName) throws CharacterCodingException {
    return path(SurrogateEscape.encode(guestName));
  }

  /**
   * The process's working directory, exactly. The JDK's (the {@code user.dir} property) is the
   * locale's decoding of it, which names another directory, or none, when the name is not in the
   * locale's charset; /proc/self/cwd keeps the bytes.
   */
  public static Path workingDirectory() {
    if (TO_BYTES != null) {
      try {
        return java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/cwd"));
      } catch (java.io.IOException | RuntimeException e) {
        // no /proc: the JDK's idea below
      }
    }
    return Path.of("").toAbsolutePath();
  }

  /** {@code p} made absolute against the exact {@link #workingDirectory()}. */
  public static Path absolute(Path p) {
    return p.isAbsolute() ? p : workingDirectory().resolve(p);
  }

  /** The bytes of a host path, exactly as the kernel has them when {@link #exact()}. */
  public static byte[] bytes(Path p) {
    if (TO_BYTES != null) {
      try {
        return ((byte[]) TO_BYTES.invoke(p)).clone();
      } catch (ReflectiveOperationException | IllegalArgumentException e) {
        throw new IllegalStateException("cannot read a path's bytes", e);
      }
    }
    return p.toString().getBytes(JNU);
  }

  /** A host path as a guest String (see {@link SurrogateEscape}). */
  public static String guestString(Path p) {
    return SurrogateEscape.decode(bytes(p));
  }

  private static byte[] normalize(byte[] b) {
    byte[] out = new byte[b.length];
    int n = 0;
    for (byte c : b) {
      if (c == '/' && n > 0 && out[n - 1] == '/') {
        continue;
      }
      out[n++] = c;
    }
    if (n > 1 && out[n - 1] == '/') {
      n--;
    }
    return java.util.Arrays.copyOf(out, n);
  }

  private static Charset jnuCharset() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }
}
