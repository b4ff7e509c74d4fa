/* system() runs /bin/sh: under acf only a RISC-V program can be exec'd, so
 * without a RISC-V shell the child fails and system() reports 127. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

int main(void) {
    int r = system("echo hello from sh");
    printf("system() returned %d (exited=%d status=%d)\n", r, WIFEXITED(r), WEXITSTATUS(r));
    return 0;
}
