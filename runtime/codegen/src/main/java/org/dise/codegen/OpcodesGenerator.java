package org.dise.codegen;

import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.TypeSpec;
import javax.lang.model.element.Modifier;
import org.dise.runtime.isa.Op;

/**
 * {@code org.dise.runtime.isa.Opcodes}: the ordinal of every {@link Op} row as a compile-time int
 * constant, so that the interpreter can switch on a plain int (an enum switch costs an extra table
 * load per instruction). Generated at build time from {@code Op.values()}, so that adding an
 * instruction is one row of the table.
 */
public final class OpcodesGenerator implements Generator {
  static final String PACKAGE = "org.dise.runtime.isa";

  @Override
  public String name() {
    return "opcodes";
  }

  @Override
  public JavaFile generate() {
    TypeSpec.Builder type =
        TypeSpec.classBuilder("Opcodes")
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addJavadoc(
                "The ordinal of every {@link $T} row as a compile-time constant, so that the"
                    + " interpreter can\nswitch on a plain int. Written at build time by"
                    + " runtime/codegen ({@code $L})\nfrom {@code Op.values()}; never edited or"
                    + " committed.\n",
                Op.class,
                OpcodesGenerator.class.getSimpleName())
            .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    for (Op op : Op.values()) {
      type.addField(
          FieldSpec.builder(int.class, op.name(), Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
              .initializer("$L", op.ordinal())
              .build());
    }
    return JavaFile.builder(PACKAGE, type.build()).skipJavaLangImports(true).indent("  ").build();
  }
}
