/* hello: smoke test.  Prints a greeting and its arguments. */
#include <stdio.h>

int main(int argc, char **argv) {
    printf("hello from RISC-V\n");
    printf("argc=%d\n", argc);
    for (int i = 0; i < argc; i++) printf("argv[%d]=%s\n", i, argv[i]);
    return 0;
}
