package org.dise.runtime.linux;

/** Linux errno values the emulated kernel returns (negated in a0). */
public final class Errno {
  private Errno() {}

  public static final int EPERM = 1;
  public static final int ESRCH = 3;
  public static final int E2BIG = 7;
  public static final int ENOENT = 2;
  public static final int EINTR = 4;
  public static final int EIO = 5;
  public static final int EBADF = 9;
  public static final int ECHILD = 10;
  public static final int EAGAIN = 11;
  public static final int ENOMEM = 12;
  public static final int EACCES = 13;
  public static final int EFAULT = 14;
  public static final int EEXIST = 17;
  public static final int EXDEV = 18;
  public static final int ENOTDIR = 20;
  public static final int EISDIR = 21;
  public static final int EINVAL = 22;
  public static final int ENFILE = 23;
  public static final int EMFILE = 24;
  public static final int EFBIG = 27;
  public static final int ENOSPC = 28;
  public static final int ENOTTY = 25;
  public static final int ESPIPE = 29;
  public static final int EPIPE = 32;
  public static final int ERANGE = 34;
  public static final int ENAMETOOLONG = 36;
  public static final int ENOSYS = 38;
  public static final int ENOTEMPTY = 39;
  public static final int ELOOP = 40;
  public static final int EILSEQ = 84;
}
