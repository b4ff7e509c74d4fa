/* For MapSharedTest:
 *   exitmap map   stores into a MAP_SHARED mapping of exit.bin and exits without msync or
 *                 munmap: the stores must reach the file when the process ends */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "map") == 0) {
    int fd = open("exit.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);
    ftruncate(fd, 4096);
    char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    strcpy(m, "written at exit");
    return 0;
  }
  return 0;
}
