/* MAP_SHARED file mappings write through to the file (issue 31): a store through a shared
 * mapping reaches the file at msync and at munmap (read back with pread), also after the
 * descriptor was closed; without msync, the process's own pread sees a store and the mapping sees
 * its pwrite and write (one page cache); a private mapping's stores never do; stores past the file's end are
 * lost; msync's EINVAL and ENOMEM cases; a writable shared mapping of a read-only descriptor is
 * EACCES. The file is created in the working directory and removed at the end. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void show(int fd, off_t off, int n) {
  char buf[16];
  memset(buf, 0, sizeof buf);
  pread(fd, buf, n, off);
  printf("file @%ld: \"%.*s\"\n", (long)off, n, buf);
}

int main(void) {
  int fd = open("shared.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);
  char page[4096];
  memset(page, '.', sizeof page);
  write(fd, page, sizeof page);
  write(fd, page, 1000); /* 5096 bytes: the second page is partly past the end */

  char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  printf("mmap shared: %d\n", m != MAP_FAILED);
  memcpy(m, "hello", 5);
  printf("msync -> %d\n", msync(m, 4096, MS_SYNC));
  show(fd, 0, 5);

  int rd = open("shared.bin", O_RDONLY);
  errno = 0;
  printf("shared writable map of a read-only fd -> %d errno %d\n",
         mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rd, 0) != MAP_FAILED, errno);
  char *ro = mmap(NULL, 4096, PROT_READ, MAP_SHARED, rd, 0);
  printf("read-only shared map sees the file: \"%.5s\"\n", ro);
  munmap(ro, 4096);
  close(rd);

  char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  memcpy(p + 10, "private", 7);
  msync(p, 4096, MS_SYNC);
  munmap(p, 4096);
  show(fd, 10, 7);

  /* Coherent with the process's own read and write, as over Linux's one page cache: no msync. */
  memcpy(m + 20, "cache", 5);
  show(fd, 20, 5);
  pwrite(fd, "XYZ", 3, 30);
  printf("the mapping sees pwrite: \"%.3s\"\n", m + 30);
  lseek(fd, 40, SEEK_SET);
  write(fd, "wr", 2);
  printf("the mapping sees write: \"%.2s\"\n", m + 40);
  char *later = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
  printf("a later mapping sees the store: \"%.5s\"\n", later + 20);
  munmap(later, 4096);

  close(fd); /* the mapping keeps the file */
  memcpy(m + 4096, "world", 5);
  memcpy(m + 6000, "lost", 4);
  printf("munmap -> %d\n", munmap(m, 8192));
  fd = open("shared.bin", O_RDONLY);
  show(fd, 4096, 5);
  printf("size %ld\n", (long)lseek(fd, 0, SEEK_END));
  close(fd);

  errno = 0;
  printf("msync unaligned -> %d errno %d\n", msync((char *)page + 1, 10, MS_SYNC), errno);
  char *q = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  munmap(q, 4096);
  errno = 0;
  printf("msync unmapped -> %d errno %d\n", msync(q, 4096, MS_ASYNC), errno);
  errno = 0;
  printf("msync bad flags -> %d errno %d\n", msync(m, 4096, MS_SYNC | MS_ASYNC), errno);
  unlink("shared.bin");
  return 0;
}
