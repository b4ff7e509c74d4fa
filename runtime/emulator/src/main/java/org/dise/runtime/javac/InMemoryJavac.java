package org.dise.runtime.javac;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Compiles one generated Java source file in process with the JDK's own compiler and loads the
 * class, all in memory. Used for translated guest code and for generated DISE engines.
 */
public final class InMemoryJavac {
  private InMemoryJavac() {}

  /** No compiler in this runtime, or javac rejected the source; the message says which. */
  public static final class JavacException extends Exception {
    public JavacException(String message) {
      super(message, null, false, false);
    }
  }

  /** True when this is a JDK (a plain JRE has no compiler). */
  public static boolean available() {
    return ToolProvider.getSystemJavaCompiler() != null;
  }

  /**
   * Compiles {@code source}, which declares the class {@code qualifiedName}, against this JVM's
   * class path, and loads it in a new class loader below {@code parent}.
   */
  public static Class<?> compile(String qualifiedName, String source, ClassLoader parent)
      throws JavacException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new JavacException("no Java compiler in this runtime (a JRE, not a JDK)");
    }
    MemoryFiles files = new MemoryFiles(javac.getStandardFileManager(null, null, null));
    JavaFileObject src =
        new SimpleJavaFileObject(
            URI.create("string:///" + qualifiedName.replace('.', '/') + ".java"),
            JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    List<String> options =
        List.of(
            "-proc:none",
            "-g:none",
            "-nowarn",
            "-classpath",
            System.getProperty("java.class.path"));
    StringWriter errors = new StringWriter();
    if (!javac.getTask(errors, files, null, options, null, List.of(src)).call()) {
      throw new JavacException(
          "javac rejected the generated "
              + qualifiedName
              + ": "
              + errors.toString().lines().findFirst().orElse(""));
    }
    ClassLoader loader =
        new ClassLoader(parent) {
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
      return loader.loadClass(qualifiedName);
    } catch (ClassNotFoundException e) {
      throw new JavacException("javac produced no class " + qualifiedName);
    }
  }

  /** Keeps javac's output classes in memory. */
  private static final class MemoryFiles extends ForwardingJavaFileManager<JavaFileManager> {
    final Map<String, byte[]> classes = new HashMap<>();

    MemoryFiles(JavaFileManager fm) {
      super(fm);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(
        Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
      return new SimpleJavaFileObject(
          URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
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
