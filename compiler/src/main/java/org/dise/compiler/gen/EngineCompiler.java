package org.dise.compiler.gen;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SpecializedEngine;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.javac.InMemoryJavac;

/**
 * Compiles {@link EngineGenerator}'s source in process with the JDK's compiler and caches the class
 * by a hash of the production set (its deployable-configuration bytes), so a set is compiled once
 * per JVM however many engines run it.
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
        throw new IllegalArgumentException(
            "the production set does not fit the hardware"
                + " budget: "
                + String.join("; ", problems));
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
    try {
      return InMemoryJavac.compile(
              EngineGenerator.PACKAGE + "." + name,
              source,
              SpecializedEngine.class.getClassLoader())
          .asSubclass(SpecializedEngine.class);
    } catch (InMemoryJavac.JavacException e) {
      throw new CompileException(
          e.getMessage() + (InMemoryJavac.available() ? "" : "; use --engine interpreted"));
    }
  }
}
