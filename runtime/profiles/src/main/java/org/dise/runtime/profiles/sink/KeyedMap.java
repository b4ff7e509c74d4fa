package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.CallSites;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ReturningSink;

/**
 * What every aggregation map shares (bpftrace's {@code @[k1, k2] = f(v)}, as a DISE sink): the key
 * tuple of a call's first arguments, the value in its last when the map takes one, the entries by
 * key, and the key columns of its table ({@code key}, or {@code key1..keyN}; a key part that every
 * call site passes as {@code T.PC} or {@code T.TARGET} is printed in hex with a {@code function}
 * column beside it). spec/profiles.md, "Aggregation maps".
 */
abstract class KeyedMap<E> extends NamedSink implements ReturningSink, CallSites {
  private final boolean takesValue;

  /** Key parts per call, known from the call sites (every call passes the same number). */
  private int keyParts = -1;

  private boolean[] codeKey = new boolean[0];

  /** The entries of keys of two or more parts (one-part keys are the subclass's, primitive). */
  protected final Map<KeyTuple, E> tuples = new HashMap<>();

  /**
   * An aggregation map's catalogue entry: a call's arguments are the key parts (and the value last,
   * when {@code takesValue}), a call returns {@code returns}, and the map's cost is the catalogue's
   * map handler cycles; its parameters are {@code cost}, then {@code params}.
   */
  static ComponentSpec mapSpec(
      String name, boolean takesValue, String returns, String doc, ParamSpec... params) {
    List<ParamSpec> all = new ArrayList<>();
    all.add(ParamSpec.cost(Catalogue.MAP_HANDLER_CYCLES));
    all.addAll(List.of(params));
    int min = takesValue ? 2 : 1;
    return new ComponentSpec(
        name,
        ComponentSpec.Kind.SINK,
        all,
        new ComponentSpec.Arity(min, Catalogue.MAX_KEY_PARTS + min - 1, true, takesValue),
        returns,
        false,
        Set.of(),
        Catalogue.MAP_HANDLER_CYCLES,
        doc,
        null);
  }

  KeyedMap(String name, boolean takesValue) {
    super(name);
    this.takesValue = takesValue;
  }

  @Override
  public void callSites(int arguments, boolean[] codeAddress) {
    keyParts = takesValue ? arguments - 1 : arguments;
    codeKey = java.util.Arrays.copyOf(codeAddress, Math.max(0, keyParts));
  }

  @Override
  public final long recordReturning(GuestState guest, DecodedInsn original, long[] args, long now) {
    int k = takesValue ? args.length - 1 : args.length;
    long value = takesValue ? args[args.length - 1] : 0;
    if (k == 1) {
      return update(args[0], value); // the common key, a pc: no tuple, no boxing
    }
    return update(new KeyTuple(args, k), value);
  }

  /**
   * The key's slot when the call's key is one constant part (a map keyed by {@code T.PC}): plans
   * apply the call to it, with the value in the last argument (spec/emulator.md, "Per-site slots").
   */
  @Override
  public final SiteSlot slot(DecodedInsn original, List<PlanOp.Arg> args) {
    int k = takesValue ? args.size() - 1 : args.size();
    return k == 1 && args.get(0) instanceof PlanOp.Arg.Const c ? slot(c.value()) : null;
  }

  /**
   * The slot of one-part key {@code key}, made on first use: from then on the key's entry, which
   * {@link #update(long, long)} with that key applies too, and the same slot on every call.
   */
  protected abstract SiteSlot slot(long key);

  /** Applies one event to the key's entry; returns what the call returns. */
  protected abstract long update(KeyTuple key, long value);

  /**
   * As {@link #update(KeyTuple, long)} for a key of one part, kept in primitive tables (a map on
   * every load makes tens of millions of calls: docs/benchmarks.md); {@link #entries()} merges
   * them.
   */
  protected abstract long update(long key, long value);

  /** Every entry by key: the tuple-keyed ones and the one-part ones, as of now. */
  protected abstract Map<KeyTuple, E> entries();

  /** The key's columns: {@code key} or {@code key1..keyN}, each code key with a function. */
  protected final List<String> keyHeader() {
    int n = keyParts();
    List<String> h = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String suffix = n == 1 ? "" : Integer.toString(i + 1);
      h.add("key" + suffix);
      if (code(i)) {
        h.add("function" + suffix);
      }
    }
    return h;
  }

  /** The key column names only, for {@link ProfileTable#key()}. */
  protected final List<String> keyColumns() {
    int n = keyParts();
    List<String> h = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      h.add(n == 1 ? "key" : "key" + (i + 1));
    }
    return h;
  }

  /** A key's cells: decimal (signed), or hex and {@code name+0xoff} for a code address. */
  protected final List<String> keyCells(KeyTuple key, SymbolTable symbols) {
    List<String> c = new ArrayList<>();
    for (int i = 0; i < key.parts.length; i++) {
      if (code(i)) {
        c.add(Branches.hex(key.parts[i]));
        c.add(symbols.describe(key.parts[i]));
      } else {
        c.add(Long.toString(key.parts[i]));
      }
    }
    return c;
  }

  private int keyParts() {
    if (keyParts >= 0) {
      return keyParts;
    }
    // No call sites were announced (a map built directly): the keys say how many parts.
    return entries().keySet().stream().findAny().map(k -> k.parts.length).orElse(1);
  }

  private boolean code(int i) {
    return i < codeKey.length && codeKey[i];
  }
}
