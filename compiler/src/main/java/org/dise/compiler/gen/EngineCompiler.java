package org.dise.compiler.gen;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SpecializedEngine;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;

/**
 * Compiles {@link EngineGenerator}'s source in process with the JDK's compiler and caches the
 * class by a hash of the production set (its deployable-configuration bytes), so a set is
 * compiled once per JVM however many engines run it.
 */
public final class EngineCompiler {
  private EngineCompiler() {}

  private static final Map<String, Class<? extends SpecializedEngine>> CACHE =
      new ConcurrentHashMap<>();

  /** The generated engine could not be built (no JDK compiler, or a generator bug). */
  public static final class CompileException extends Exception {
    public CompileException(String message) {
      super(message, null, false, false);
    }
  }

  /** The class name for {@code set}: {@code Engine_} and the first 12 hex digits of its hash. */
  public static String className(ProductionSet set) {
    try {
      byte[] bytes = ConfigFormat.toBytes(new DeployableConfig("", set));
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
      return "Engine_" + HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
  }

  /**
   * A new generated engine for {@code set}.
   *
   * @throws IllegalArgumentException naming what does not fit the hardware budget
   */
  public static SpecializedEngine load(ProductionSet set) throws CompileException {
    String name = className(set);
    Class<? extends SpecializedEngine> c = CACHE.get(name);
    if (c == null) {
      List<String> problems = set.budget().violations(set);
      if (!problems.isEmpty()) { // before spending a javac run on it
        throw new IllegalArgumentException("the production set does not fit the hardware"
            + " budget: " + String.join("; ", problems));
      }
      c = compile(name, EngineGenerator.generate(set, name).toString());
      CACHE.put(name, c);
    }
    try {
      return c.getConstructor(ProductionSet.class).newInstance(set);
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new CompileException("cannot instantiate " + name + ": " + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new CompileException("cannot instantiate " + name + ": " + e);
    }
  }

  private static Class<? extends SpecializedEngine> compile(String name, String source)
      throws CompileException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new CompileException("no Java compiler in this runtime (a JRE, not a JDK);"
          + " use --engine interpreted");
    }
    String pkg = EngineGenerator.PACKAGE;
    MemoryFiles files = new MemoryFiles(javac.getStandardFileManager(null, null, null));
    JavaFileObject src = new SimpleJavaFileObject(
        URI.create("string:///" + pkg.replace('.', '/') + "/" + name + ".java"),
        JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return source;
      }
    };
    List<String> options = List.of("-proc:none", "-g:none", "-nowarn", "-classpath",
        System.getProperty("java.class.path"));
    StringWriter errors = new StringWriter();
    if (!javac.getTask(errors, files, null, options, null, List.of(src)).call()) {
      throw new CompileException("javac rejected the generated " + name + ": "
          + errors.toString().lines().findFirst().orElse(""));
    }
    ClassLoader loader = new ClassLoader(SpecializedEngine.class.getClassLoader()) {
      @Override
      protected Class<?> findClass(String n) throws ClassNotFoundException {
        byte[] b = files.classes.get(n);
        if (b == null) {
          throw new ClassNotFoundException(n);
        }
        return defineClass(n, b, 0, b.length);
      }
    };
    try {
      return loader.loadClass(pkg + "." + name).asSubclass(SpecializedEngine.class);
    } catch (ClassNotFoundException e) {
      throw new CompileException("javac produced no class " + name);
    }
  }

  /** Keeps javac's output classes in memory. */
  private static final class MemoryFiles extends ForwardingJavaFileManager<JavaFileManager> {
    final Map<String, byte[]> classes = new HashMap<>();

    MemoryFiles(JavaFileManager fm) {
      super(fm);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(Location location, String className,
        JavaFileObject.Kind kind, FileObject sibling) {
      return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/')
          + kind.extension), kind) {
        @Override
        public OutputStream openOutputStream() {
          return new ByteArrayOutputStream() {
            @Override
            public void close() {
              classes.put(className, toByteArray());
            }
          };
        }
      };
    }
  }
}
