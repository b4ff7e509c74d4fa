/* execve: a forked child runs this same program again with other arguments
 * and environment (found through argv[0]); a file that is no program fails
 * with ENOEXEC and the caller goes on; a missing one fails with ENOENT.
 * Runs in a fresh working directory (it creates and removes one file). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        const char *v = getenv("EXEC_TEST");
        printf("child: argc=%d arg2=%s env=%s fd3=%s\n", argc, argc > 2 ? argv[2] : "-",
               v ? v : "-", fcntl(3, F_GETFD) == -1 && errno == EBADF ? "closed" : "open");
        return 7;
    }
    setvbuf(stdout, NULL, _IONBF, 0);

    /* A descriptor marked close-on-exec must be gone in the new program. */
    int fd = open(".", O_RDONLY | O_CLOEXEC);
    if (fd != 3)
        dup2(fd, 3);

    pid_t c = fork();
    if (c == 0) {
        char *args[] = {argv[0], "child", "two words", NULL};
        char *env[] = {"EXEC_TEST=yes", NULL};
        execve(argv[0], args, env);
        _exit(100 + errno);
    }
    int st;
    waitpid(c, &st, 0);
    printf("exec: exited=%d status=%d\n", WIFEXITED(st), WEXITSTATUS(st));

    /* Not a program: ENOEXEC, and this process goes on. */
    int t = open("not_a_program", O_WRONLY | O_CREAT | O_TRUNC, 0755);
    write(t, "\x01\x02\x03 junk, not ELF\n", 19);
    close(t);
    char *none[] = {"not_a_program", NULL};
    int r = execve("./not_a_program", none, environ);
    printf("junk: rc=%d errno=%s\n", r, errno == ENOEXEC ? "ENOEXEC" : strerror(errno));
    unlink("not_a_program");

    r = execve("./no_such_program", none, environ);
    printf("missing: rc=%d errno=%s\n", r, errno == ENOENT ? "ENOENT" : strerror(errno));

    /* exec without fork: this process becomes the child (its status is ours). */
    char *args[] = {argv[0], "child", NULL};
    execve(argv[0], args, environ);
    return 1;
}
