package org.dise.compiler.ast;

import java.util.List;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;

/** One parsed ACF file: its items in order, and its comments for the formatter. */
public record AcfFile(SourceFile source, List<Item> items, List<Comment> comments, Span span)
    implements Node {
  public AcfFile {
    items = List.copyOf(items);
    comments = List.copyOf(comments);
  }

  /** Structural equality ignores the source text and comments: two files that say the same. */
  @Override
  public boolean equals(Object o) {
    return o instanceof AcfFile f && items.equals(f.items);
  }

  @Override
  public int hashCode() {
    return items.hashCode();
  }
}
