package org.dise.runtime.elf;

/** A function symbol: name and address range [address, address + size). */
public record Symbol(String name, long address, long size) {
  public boolean contains(long addr) {
    return addr >= address && (addr < address + size || (size == 0 && addr == address));
  }
}
