package org.dise.runtime.linux;

import java.util.Locale;

/**
 * The guest's resource limits, as Linux's {@code RLIMIT_NOFILE} and {@code RLIMIT_AS}: the number
 * of open descriptors and the bytes of address space it may map. Reaching one gives the guest the
 * errno Linux gives (EMFILE, ENOMEM), never a failure of the tool (see spec/emulator.md).
 *
 * @param nofile one more than the highest descriptor number the guest may open
 * @param addressSpace the bytes of memory the guest may have mapped (stack and program included)
 * @param nproc the processes the guest's process tree may hold at once (as RLIMIT_NPROC: fork
 *     beyond it fails with EAGAIN), the first process and unreaped children included
 */
public record GuestLimits(int nofile, long addressSpace, int nproc) {
  /**
   * The default process limit: small, because every guest process is a copy of its parent's memory
   * in the tool's heap, and a fork bomb must end in EAGAIN rather than an exhausted host.
   */
  public static final int DEFAULT_NPROC = 32;

  /** The most --limit nproc allows. */
  public static final int MAX_NPROC = 4096;

  public GuestLimits(int nofile, long addressSpace) {
    this(nofile, addressSpace, DEFAULT_NPROC);
  }

  /** Linux's default soft RLIMIT_NOFILE. */
  public static final int DEFAULT_NOFILE = 1024;

  /** Linux's default hard RLIMIT_NOFILE; --limit cannot go beyond it. */
  public static final int MAX_NOFILE = 1 << 20;

  /** The emulated address space is the low 4 GiB. */
  public static final long MAX_AS = 1L << 32;

  /** The smallest address space a static program starts in (program, stack, heap). */
  public static final long MIN_AS = 16L << 20;

  public GuestLimits {
    if (nofile < 3 || nofile > MAX_NOFILE) {
      throw new IllegalArgumentException(
          "nofile must be between 3 and " + MAX_NOFILE + ", not " + nofile);
    }
    if (addressSpace < MIN_AS || addressSpace > MAX_AS) {
      throw new IllegalArgumentException("as must be between 16M and 4G, not " + addressSpace);
    }
    if (nproc < 1 || nproc > MAX_NPROC) {
      throw new IllegalArgumentException(
          "nproc must be between 1 and " + MAX_NPROC + ", not " + nproc);
    }
  }

  /**
   * The defaults: 1024 descriptors, and an address space of 2 GiB or half of the JVM's maximum
   * heap, whichever is smaller, so that a guest that touches all it may map cannot exhaust the
   * tool's own memory.
   */
  public static GuestLimits defaults() {
    long half = Runtime.getRuntime().maxMemory() / 2;
    long as = Math.max(MIN_AS, Math.min(2L << 30, half) & ~0xfffffL);
    return new GuestLimits(DEFAULT_NOFILE, as);
  }

  /**
   * Applies one {@code NAME=VALUE} setting as {@code --limit} takes it: {@code nofile=N} or {@code
   * as=SIZE} (SIZE in bytes with an optional K, M or G suffix).
   *
   * @throws IllegalArgumentException with a message naming the culprit
   */
  public GuestLimits with(String setting) {
    int eq = setting.indexOf('=');
    if (eq < 0) {
      throw new IllegalArgumentException(
          "--limit takes NAME=VALUE (nofile=N, as=SIZE or nproc=N), not '" + setting + "'");
    }
    String name = setting.substring(0, eq).trim().toLowerCase(Locale.ROOT);
    String value = setting.substring(eq + 1).trim();
    return switch (name) {
      case "nofile" -> {
        long n = parseSize(value, false);
        if (n < 3 || n > MAX_NOFILE) {
          throw new IllegalArgumentException(
              "--limit nofile=" + value + ": must be between 3 and " + MAX_NOFILE);
        }
        yield new GuestLimits((int) n, addressSpace, nproc);
      }
      case "as" -> {
        long n = parseSize(value, true);
        if (n < MIN_AS || n > MAX_AS) {
          throw new IllegalArgumentException(
              "--limit as=" + value + ": must be between 16M and 4G (the emulated address space)");
        }
        yield new GuestLimits(nofile, n, nproc);
      }
      case "nproc" -> {
        long n = parseSize(value, false);
        if (n < 1 || n > MAX_NPROC) {
          throw new IllegalArgumentException(
              "--limit nproc=" + value + ": must be between 1 and " + MAX_NPROC);
        }
        yield new GuestLimits(nofile, addressSpace, (int) n);
      }
      default ->
          throw new IllegalArgumentException(
              "--limit " + setting + ": unknown limit '" + name + "' (known: nofile, as, nproc)");
    };
  }

  private static long parseSize(String v, boolean suffixes) {
    String s = v.toUpperCase(Locale.ROOT);
    long mult = 1;
    if (suffixes && !s.isEmpty()) {
      char last = s.charAt(s.length() - 1);
      mult =
          switch (last) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1;
          };
      if (mult != 1) {
        s = s.substring(0, s.length() - 1);
      }
    }
    try {
      long n = Long.parseLong(s);
      if (n < 0 || n > Long.MAX_VALUE / mult) {
        throw new NumberFormatException();
      }
      return n * mult;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'"
              + v
              + "' is not a "
              + (suffixes
                  ? "size (a number of bytes, optionally with K, M or G)"
                  : "whole number"));
    }
  }
}
