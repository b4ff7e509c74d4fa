#!/usr/bin/env python3
"""Regenerates isa/Opcodes.java (int constants equal to Op ordinals) from the table in Op.java."""
import os
import re

here = os.path.dirname(os.path.abspath(__file__))
isa = os.path.join(here, "src/main/java/org/dise/runtime/isa")
src = open(os.path.join(isa, "Op.java")).read()
body = src[src.index("public enum Op {"):src.index("  private final String mnemonic;")]
names = re.findall(r'^\s+([A-Z][A-Z0-9_]*)\("', body, re.M)
out = [
    "package org.dise.runtime.isa;", "", "/**",
    " * The ordinal of every {@link Op} row as a compile-time constant, so the interpreter can switch",
    " * on a plain int (an enum switch costs an extra table load per instruction). {@code OpcodesTest}",
    " * fails if these drift from {@link Op}; regenerate them with {@code runtime/gen-opcodes.py}.",
    " */", "public final class Opcodes {", "  private Opcodes() {}", "",
]
out += [f"  public static final int {n} = {i};" for i, n in enumerate(names)]
out.append("}")
open(os.path.join(isa, "Opcodes.java"), "w").write("\n".join(out) + "\n")
print(f"{len(names)} opcodes")
