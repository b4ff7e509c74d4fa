package org.dise.runtime.elf;

/** A program header of an ELF file (addresses before any load bias). */
public record Segment(
    int type, int flags, long offset, long vaddr, long fileSize, long memSize, long align) {
  public static final int PT_LOAD = 1;
  public static final int PT_INTERP = 3;
  public static final int PT_PHDR = 6;
  public static final int PT_TLS = 7;
  public static final int PF_X = 1;
  public static final int PF_W = 2;
  public static final int PF_R = 4;
}
