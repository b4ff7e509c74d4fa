package org.dise.runtime.isa;

/** The ISA extension an instruction belongs to. */
public enum Extension {
  I,
  M,
  A,
  F,
  D,
  C,
  ZICSR,
  ZIFENCEI,
  /** DISE codewords: reserved encodings (custom-0) that only productions give meaning to. */
  DISE
}
