package org.dise.runtime.mem;

/** A guest access to unmapped or protected memory. Carries no Java stack trace: it is data. */
public final class MemoryFault extends RuntimeException {
  /** What the guest tried to do. */
  public enum Access {
    READ,
    WRITE,
    EXECUTE;

    public String verb() {
      return switch (this) {
        case READ -> "read from";
        case WRITE -> "write to";
        case EXECUTE -> "execute at";
      };
    }
  }

  private final long address;
  private final Access access;
  private final boolean mapped;

  public MemoryFault(long address, Access access, boolean mapped) {
    super(null, null, false, false);
    this.address = address;
    this.access = access;
    this.mapped = mapped;
  }

  public long address() {
    return address;
  }

  public Access access() {
    return access;
  }

  /** True when the page is mapped but lacks the permission (otherwise it is unmapped). */
  public boolean mapped() {
    return mapped;
  }

  @Override
  public String getMessage() {
    return String.format(
        "%s address 0x%x (%s)",
        access.verb(),
        address,
        mapped ? "page lacks " + access.name().toLowerCase() + " permission" : "unmapped");
  }
}
