package org.dise.repl.common;

import java.util.Optional;
import java.util.function.Function;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Name;

/**
 * The kinds of ACF item that carry a name, each with how to read it: what a declaration declares,
 * or the module an {@code import} or {@code use} names. One table for the REPL's edits and the
 * LSP's outline, declarations and hovers, so that a new kind of item is added in one place.
 */
public enum ItemName {
  PRODUCTION("production", Item.Production.class, Item.Production::name),
  REPLACEMENT("replacement", Item.Replacement.class, Item.Replacement::name),
  BLOCK("acf", Item.AcfBlock.class, Item.AcfBlock::name),
  SINK("sink", Item.SinkDecl.class, Item.SinkDecl::name),
  TRIGGER("trigger", Item.TriggerDecl.class, Item.TriggerDecl::name),
  COUNTER("counter", Item.CounterDecl.class, Item.CounterDecl::name),
  REGISTER("register", Item.RegisterDecl.class, Item.RegisterDecl::name),
  CONST("const", Item.ConstDecl.class, Item.ConstDecl::name),
  IMPORT("import", Item.Import.class, Item.Import::target),
  USE("use", Item.Use.class, Item.Use::target);

  /** The item's keyword, or (for productions and replacements) what it is: the outline's word. */
  public final String word;

  private final Class<? extends Item> type;
  private final Function<Item, Name> name;

  <T extends Item> ItemName(String word, Class<T> type, Function<T, Name> name) {
    this.word = word;
    this.type = type;
    this.name = item -> name.apply(type.cast(item));
  }

  /** The item's kind, or empty for an item without a name. */
  public static Optional<ItemName> of(Item item) {
    for (ItemName k : values()) {
      if (k.type.isInstance(item)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** The name an item of this kind carries. */
  public Name nameOf(Item item) {
    return name.apply(item);
  }

  /** Whether the name is declared by the item (not the module an import or use names). */
  public boolean declares() {
    return this != IMPORT && this != USE;
  }
}
