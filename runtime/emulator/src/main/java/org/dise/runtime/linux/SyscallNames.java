package org.dise.runtime.linux;

import java.util.Map;

/** Names of riscv64 Linux system call numbers, for notices. */
final class SyscallNames {
  private SyscallNames() {}

  private static final Map<Integer, String> NAMES =
      Map.ofEntries(
          Map.entry(17, "getcwd"),
          Map.entry(19, "eventfd2"),
          Map.entry(20, "epoll_create1"),
          Map.entry(23, "dup"),
          Map.entry(24, "dup3"),
          Map.entry(25, "fcntl"),
          Map.entry(29, "ioctl"),
          Map.entry(32, "flock"),
          Map.entry(33, "mknodat"),
          Map.entry(34, "mkdirat"),
          Map.entry(35, "unlinkat"),
          Map.entry(36, "symlinkat"),
          Map.entry(37, "linkat"),
          Map.entry(38, "renameat"),
          Map.entry(43, "statfs"),
          Map.entry(46, "ftruncate"),
          Map.entry(48, "faccessat"),
          Map.entry(49, "chdir"),
          Map.entry(52, "fchmod"),
          Map.entry(53, "fchmodat"),
          Map.entry(54, "fchownat"),
          Map.entry(56, "openat"),
          Map.entry(57, "close"),
          Map.entry(59, "pipe2"),
          Map.entry(61, "getdents64"),
          Map.entry(62, "lseek"),
          Map.entry(71, "sendfile"),
          Map.entry(72, "pselect6"),
          Map.entry(73, "ppoll"),
          Map.entry(82, "fsync"),
          Map.entry(88, "utimensat"),
          Map.entry(95, "waitid"),
          Map.entry(117, "ptrace"),
          Map.entry(122, "sched_setaffinity"),
          Map.entry(123, "sched_getaffinity"),
          Map.entry(146, "setresuid"),
          Map.entry(167, "prctl"),
          Map.entry(198, "socket"),
          Map.entry(203, "connect"),
          Map.entry(220, "clone"),
          Map.entry(221, "execve"),
          Map.entry(260, "wait4"),
          Map.entry(276, "renameat2"),
          Map.entry(291, "statx"),
          Map.entry(435, "clone3"),
          Map.entry(439, "faccessat2"));

  static String name(int nr) {
    return NAMES.getOrDefault(nr, "unknown");
  }
}
