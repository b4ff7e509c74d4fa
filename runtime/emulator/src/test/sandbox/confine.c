/* Confinement probes: a guest that tries to leave its sandbox, and one that stays inside.
 *
 *   confine attack OUTABS OUTREL   every way out we know of; the host test checks that nothing
 *                                  under OUTABS changed and its secret never reaches stdout
 *   confine allowed                the same calls on paths inside (compared with qemu-riscv64)
 *
 * Each probe prints "name: OK" (with what it read) or "name: ERRNO-NAME".
 * The working directory is the sandbox; the host test lays out the links (see ConfinementTest).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *ename(int e) {
  switch (e) {
    case EACCES: return "EACCES";
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case ELOOP: return "ELOOP";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case EPERM: return "EPERM";
    case EINVAL: return "EINVAL";
    case EXDEV: return "EXDEV";
    case ENOTEMPTY: return "ENOTEMPTY";
    case EBADF: return "EBADF";
    default: return "E?";
  }
}

static void result(const char *name, int r) {
  if (r < 0) printf("%s: %s\n", name, ename(errno));
  else printf("%s: OK\n", name);
}

/* Opens, writes "GUEST" if writing, reads up to 63 bytes if reading, and reports. */
static void try_open_at(const char *name, int dirfd, const char *path, int flags) {
  int fd = openat(dirfd, path, flags, 0644);
  if (fd < 0) {
    printf("%s: %s\n", name, ename(errno));
    return;
  }
  char buf[64] = {0};
  if ((flags & O_ACCMODE) != O_RDONLY) {
    if (write(fd, "GUEST", 5) != 5) printf("%s: write failed %s\n", name, ename(errno));
  }
  if ((flags & O_ACCMODE) != O_WRONLY && !(flags & O_DIRECTORY)) {
    ssize_t n = read(fd, buf, sizeof buf - 1);
    if (n < 0) n = 0;
    buf[n] = 0;
  }
  close(fd);
  printf("%s: OK read=[%s]\n", name, buf);
}

static void try_open(const char *name, const char *path, int flags) {
  try_open_at(name, AT_FDCWD, path, flags);
}

/* a/b in one of four rotating buffers, so that calls may nest. */
static const char *cat(const char *a, const char *b) {
  static char bufs[4][8192];
  static int next;
  char *p = bufs[next++ & 3];
  snprintf(p, sizeof bufs[0], "%s/%s", a, b);
  return p;
}

static void try_stat(const char *name, const char *path, int follow) {
  struct stat st;
  int r = follow ? stat(path, &st) : lstat(path, &st);
  result(name, r);
}

static void attack(const char *out, const char *outrel) {
  /* Links inside the sandbox that point out, at the end of a path. */
  try_open("dangle-creat", "dangle", O_WRONLY | O_CREAT);
  try_open("dangle-creat-trunc", "dangle", O_WRONLY | O_CREAT | O_TRUNC);
  try_open("dangle-creat-excl", "dangle", O_WRONLY | O_CREAT | O_EXCL);
  try_open("dangle-dir-creat", "dangle_dir/x", O_WRONLY | O_CREAT);
  try_open("link-read", "to_secret", O_RDONLY);
  try_open("link-append", "to_secret", O_WRONLY | O_APPEND);
  try_open("link-rdwr", "to_secret", O_RDWR);
  try_open("link-nofollow", "to_secret", O_RDONLY | O_NOFOLLOW);
  try_open("chain-read", "chain1", O_RDONLY);
  /* ... in the middle of a path. */
  try_open("dirlink-read", "to_outdir/secret.txt", O_RDONLY);
  try_open("dirlink-creat", "to_outdir/new.txt", O_WRONLY | O_CREAT);
  try_open("dirlink-list", "to_outdir", O_RDONLY | O_DIRECTORY);
  try_open("uplink-read", cat("inner/up", cat(outrel, "secret.txt")), O_RDONLY);
  try_open("rel-uplink-read", "inner/relup/secret.txt", O_RDONLY);
  /* .. and absolute paths. */
  try_open("dotdot-read", cat(outrel, "secret.txt"), O_RDONLY);
  try_open("dotdot-creat", cat(outrel, "new.txt"), O_WRONLY | O_CREAT);
  try_open("abs-read", cat(out, "secret.txt"), O_RDONLY);
  try_open("abs-write", cat(out, "secret.txt"), O_WRONLY | O_TRUNC);
  try_open("abs-creat", cat(out, "new.txt"), O_WRONLY | O_CREAT);
  try_open("abs-dotdot", cat("inner/../..", cat(outrel, "secret.txt")), O_RDONLY);
  /* Metadata and names. */
  try_stat("stat-abs", cat(out, "secret.txt"), 1);
  try_stat("stat-missing-out", cat(out, "no-such-file"), 1);
  try_stat("stat-link", "to_secret", 1);
  try_stat("lstat-link", "to_secret", 0);
  char lbuf[256];
  result("readlink-out", (int) readlink(cat(out, "outlink"), lbuf, sizeof lbuf));
  result("access-abs", access(cat(out, "secret.txt"), F_OK));
  result("mkdir-abs", mkdir(cat(out, "newdir"), 0755));
  result("mkdir-dirlink", mkdir("to_outdir/newdir", 0755));
  result("unlink-abs", unlink(cat(out, "secret.txt")));
  result("unlink-dirlink", unlink("to_outdir/secret.txt"));
  result("rmdir-abs", rmdir(cat(out, "dir")));
  result("unlink-link-itself", unlink("to_secret_2"));
  /* Renames and links across the boundary. */
  int f = open("mine.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (f >= 0) { write(f, "MINE", 4); close(f); }
  result("rename-out", rename("mine.txt", cat(out, "mine.txt")));
  result("rename-out-dirlink", rename("mine.txt", "to_outdir/mine.txt"));
  result("rename-in", rename(cat(out, "secret.txt"), "stolen.txt"));
  result("rename-dir-in", rename(cat(out, "dir"), "stolen_dir"));
  result("rename-over-out", rename("mine.txt", cat(out, "secret.txt")));
  result("link-in", link(cat(out, "secret.txt"), "hard_in"));
  result("link-in-follow", linkat(AT_FDCWD, "to_secret", AT_FDCWD, "hard_in2", AT_SYMLINK_FOLLOW));
  result("link-out", link("mine.txt", cat(out, "mine_link")));
  try_open("hardlink-read", "hard", O_RDONLY);
  try_open("hardlink-write", "hard", O_WRONLY | O_APPEND);
  /* A link the guest makes itself is judged at each use. */
  result("symlink-make", symlink(cat(out, "secret.txt"), "mylink"));
  try_open("symlink-use", "mylink", O_RDONLY);
  result("symlink-make-out", symlink("x", cat(out, "planted")));
  result("symlink-dir-make", symlink(out, "mydirlink"));
  try_open("symlink-dir-creat", "mydirlink/planted.txt", O_WRONLY | O_CREAT);
  /* /proc/self and its magic links. */
  try_open("proc-root", cat("/proc/self/root", cat(out, "secret.txt")), O_RDONLY);
  try_open("proc-cwd", cat("/proc/self/cwd", cat(outrel, "secret.txt")), O_RDONLY);
  try_open("proc-mem", "/proc/self/mem", O_RDWR);
  try_open("proc-environ", "/proc/self/environ", O_RDONLY);
  result("readlink-exe", readlink("/proc/self/exe", lbuf, sizeof lbuf) > 0 ? 0 : -1);
  /* Directory descriptors opened before a chdir. */
  int dfd = open(".", O_RDONLY | O_DIRECTORY);
  result("chdir-dirlink", chdir("to_outdir"));
  result("chdir-abs", chdir(out));
  result("chdir-up", chdir(".."));
  mkdir("sub", 0755);
  result("chdir-sub", chdir("sub"));
  try_open_at("dirfd-out", dfd, cat(outrel, "secret.txt"), O_RDONLY);
  try_open_at("dirfd-abs", dfd, cat(out, "secret.txt"), O_RDONLY);
  try_open("after-chdir-out", cat("..", cat(outrel, "secret.txt")), O_RDONLY);
  try_open_at("dirfd-in", dfd, "own.txt", O_RDONLY);
  result("fchdir-back", fchdir(dfd));
  int ofd = open("to_outdir", O_RDONLY | O_DIRECTORY);
  result("opendir-out", ofd);
  try_open_at("dirfd-bad", 12345, "x", O_RDONLY);
  try_open_at("dirfd-file", 1, "x", O_RDONLY);
  /* Very long paths and names. */
  static char lp[9000];
  lp[0] = 0;
  while (strlen(lp) < 4200) strcat(lp, "./");
  strcat(lp, "own.txt");
  try_open("path-4200", lp, O_RDONLY);
  lp[0] = 0;
  while (strlen(lp) < 3900) strcat(lp, "./");
  strcat(lp, outrel);
  strcat(lp, "/secret.txt");
  try_open("path-3900-out", lp, O_RDONLY);
  memset(lp, 'n', 300);
  lp[300] = 0;
  try_open("name-300", lp, O_WRONLY | O_CREAT);
  lp[0] = 0;
  for (int i = 0; i < 45; i++) strcat(lp, "loop/");
  try_open("link-loop", "loop", O_RDONLY);
  close(dfd);
}

/* The same kinds of calls, on paths that stay inside: must behave as on Linux. */
static void allowed(void) {
  try_open("creat", "a.txt", O_WRONLY | O_CREAT | O_TRUNC);
  try_open("read", "a.txt", O_RDONLY);
  try_open("excl-exists", "a.txt", O_WRONLY | O_CREAT | O_EXCL);
  try_open("missing", "b.txt", O_RDONLY);
  result("mkdir", mkdir("d", 0755));
  result("mkdir-again", mkdir("d", 0755));
  result("symlink", symlink("a.txt", "l"));
  try_open("via-link", "l", O_RDONLY);
  try_open("nofollow", "l", O_RDONLY | O_NOFOLLOW);
  result("symlink-dangling", symlink("d/new.txt", "dl"));
  try_open("creat-via-dangling", "dl", O_WRONLY | O_CREAT);
  try_open("read-created", "d/new.txt", O_RDONLY);
  result("rename", rename("a.txt", "d/a.txt"));
  try_open("old-name", "a.txt", O_RDONLY);
  try_open("new-name", "d/a.txt", O_RDONLY);
  result("link", link("d/a.txt", "d/b.txt"));
  result("unlink", unlink("d/b.txt"));
  result("unlink-dir", unlink("d"));
  result("rmdir-nonempty", rmdir("d"));
  result("chdir", chdir("d"));
  try_open("relative-after-chdir", "a.txt", O_RDONLY);
  try_open("dotdot-inside", "../l", O_RDONLY);
  result("chdir-back", chdir(".."));
  int dfd = open("d", O_RDONLY | O_DIRECTORY);
  try_open_at("openat-dirfd", dfd, "a.txt", O_RDONLY);
  try_open_at("openat-file-dirfd", 0, "a.txt", O_RDONLY);
  result("trailing-slash-file", open("l/", O_RDONLY));
  result("notdir-middle", open("l/x", O_RDONLY));
  static char lp[9000];
  lp[0] = 0;
  while (strlen(lp) < 4200) strcat(lp, "./");
  strcat(lp, "l");
  result("path-too-long", open(lp, O_RDONLY));
  memset(lp, 'n', 300);
  lp[300] = 0;
  result("name-too-long", open(lp, O_RDONLY));
  result("symlink-loop", symlink("loop", "loop"));
  result("open-loop", open("loop", O_RDONLY));
  unlink("loop");
  unlink("l");
  unlink("dl");
  unlink("d/a.txt");
  unlink("d/new.txt");
  result("rmdir", rmdir("d"));
  close(dfd);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc >= 2 && strcmp(argv[1], "attack") == 0 && argc == 4) {
    attack(argv[2], argv[3]);
  } else if (argc >= 2 && strcmp(argv[1], "allowed") == 0) {
    allowed();
  } else {
    fprintf(stderr, "usage: confine attack OUTABS OUTREL | confine allowed\n");
    return 2;
  }
  return 0;
}
