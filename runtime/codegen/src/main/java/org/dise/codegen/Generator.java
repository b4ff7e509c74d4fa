package org.dise.codegen;

import com.squareup.javapoet.JavaFile;

/**
 * One source file the build generates from a table: its name on the generator's command line and
 * the file, written with JavaPoet.
 */
public interface Generator {
  /** The name the build passes to {@link Generate} to ask for this file. */
  String name();

  /** The generated source file. */
  JavaFile generate();
}
