/* Byte-exact names: arguments, environment and file names holding bytes 0x80-0xff.
 *
 *   names args ARG...   prints each argument, then each environment entry starting "T_", in hex
 *   names files [DIR]   in DIR or the working directory (writable), creates, lists, renames, links and
 *                       removes files whose names are not UTF-8 (or are UTF-8 that looks like an
 *                       escape), printing every name read back in hex
 *
 * Output is hex only, so qemu-riscv64's and the emulator's can be compared as text.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void hex(const char *label, const char *s) {
  printf("%s:", label);
  for (const unsigned char *p = (const unsigned char *) s; *p; p++) printf(" %02x", *p);
  printf("\n");
}

static void check(const char *what, const char *name, int r) {
  if (r < 0) {
    printf("%s failed: errno %d on", what, errno);
    hex("", name);
  }
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *) a, *(char *const *) b);
}

static void list(const char *label) {
  DIR *d = opendir(".");
  if (!d) { printf("opendir failed: errno %d\n", errno); return; }
  char *names[64];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 64)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, n, sizeof names[0], cmp);
  printf("%s: %d entries\n", label, n);
  for (int i = 0; i < n; i++) {
    struct stat st;
    int r = lstat(names[i], &st);
    char kind = r < 0 ? '?' : S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'f';
    char tag[16];
    snprintf(tag, sizeof tag, "  %c %lld", kind, r < 0 ? -1LL : (long long) st.st_size);
    hex(tag, names[i]);
    free(names[i]);
  }
}

static void create(const char *name) {
  int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
  check("create", name, fd);
  if (fd >= 0) {
    /* The content is the name itself, so that reading through another name shows which file. */
    if (write(fd, name, strlen(name)) < 0) printf("write failed: errno %d\n", errno);
    close(fd);
  }
}

static void readback(const char *name) {
  char buf[64] = {0};
  int fd = open(name, O_RDONLY);
  check("open", name, fd);
  if (fd >= 0) {
    ssize_t n = read(fd, buf, sizeof buf - 1);
    buf[n < 0 ? 0 : n] = 0;
    close(fd);
    hex("  read", name);
    hex("  held", buf);
  }
}

static int files(void) {
  /* Two names that differ only in a byte that is not UTF-8, one that is UTF-8 (é), one that is
   * Latin-1 (été), and the UTF-8 encoding of a lone surrogate, which must not be taken for an
   * escaped byte. */
  const char *names[] = {"a\x80", "a\xff", "\xc3\xa9", "\xe9t\xe9", "\xed\xb2\x80", "\x80"};
  int n = sizeof names / sizeof names[0];
  for (int i = 0; i < n; i++) create(names[i]);
  list("created");
  for (int i = 0; i < n; i++) readback(names[i]);
  check("mkdir", "d\xfe", mkdir("d\xfe", 0755));
  check("chdir", "d\xfe", chdir("d\xfe"));
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) {
    hex("cwd ends", strrchr(cwd, '/') + 1);
  } else {
    printf("getcwd failed: errno %d\n", errno);
  }
  create("in\xfe\xfd");
  list("inside");
  check("chdir", "..", chdir(".."));
  check("symlink", "l\xf0", symlink("a\x80", "l\xf0"));
  char target[256];
  ssize_t t = readlink("l\xf0", target, sizeof target - 1);
  if (t >= 0) {
    target[t] = 0;
    hex("link", target);
  } else {
    printf("readlink failed: errno %d\n", errno);
  }
  readback("l\xf0");
  check("rename", "a\xff", rename("a\xff", "b\xfe"));
  check("link", "b\xfe", link("b\xfe", "h\xa0"));
  check("unlink", "\xe9t\xe9", unlink("\xe9t\xe9"));
  check("unlink", "h\xa0", unlink("h\xa0"));
  int r = open("a\x81", O_RDONLY);
  printf("open of a missing name: %s\n", r < 0 && errno == ENOENT ? "ENOENT" : "other");
  list("after");
  return 0;
}

int main(int argc, char **argv, char **envp) {
  if (argc >= 2 && !strcmp(argv[1], "files")) {
    if (argc >= 3 && chdir(argv[2]) < 0) {
      printf("chdir failed: errno %d\n", errno);
      return 1;
    }
    return files();
  }
  if (argc >= 2 && !strcmp(argv[1], "args")) {
    for (int i = 2; i < argc; i++) hex("arg", argv[i]);
    for (char **e = envp; *e; e++)
      if (!strncmp(*e, "T_", 2)) hex("env", *e);
    return 0;
  }
  fprintf(stderr, "usage: names args ARG... | names files [DIR]\n");
  return 2;
}
