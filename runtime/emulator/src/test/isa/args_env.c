/* args_env: the initial process state set up by the loader.
 *   argc/argv (argv[0] printed as its basename only, so the ELF's location
 *   does not matter), the layout of the argument strings, the auxiliary
 *   vector (the sequence of entry types, and the values that are host
 *   independent: AT_PAGESZ, AT_HWCAP, AT_PHENT, AT_PHNUM, AT_ENTRY, AT_PHDR,
 *   AT_BASE, AT_FLAGS, AT_SECURE, AT_CLKTCK, AT_EXECFN basename, whether
 *   AT_RANDOM points to 16 readable bytes), and the stack alignment at
 *   _start and in main's frame.  Environment variables are not printed (they
 *   differ between runners).  Run with the arguments in args_env.args.
 *   Exit status: 0 if all layout checks pass, 1 otherwise. */
#define _GNU_SOURCE
#include "common.h"
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>

extern void *__libc_stack_end;
extern char _start[];
extern const ElfW(Ehdr) __ehdr_start;

static const char *base(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static const char *auxname(unsigned long t) {
    switch (t) {
    case AT_NULL: return "AT_NULL"; case AT_IGNORE: return "AT_IGNORE";
    case AT_EXECFD: return "AT_EXECFD"; case AT_PHDR: return "AT_PHDR";
    case AT_PHENT: return "AT_PHENT"; case AT_PHNUM: return "AT_PHNUM";
    case AT_PAGESZ: return "AT_PAGESZ"; case AT_BASE: return "AT_BASE";
    case AT_FLAGS: return "AT_FLAGS"; case AT_ENTRY: return "AT_ENTRY";
    case AT_NOTELF: return "AT_NOTELF"; case AT_UID: return "AT_UID";
    case AT_EUID: return "AT_EUID"; case AT_GID: return "AT_GID";
    case AT_EGID: return "AT_EGID"; case AT_CLKTCK: return "AT_CLKTCK";
    case AT_PLATFORM: return "AT_PLATFORM"; case AT_HWCAP: return "AT_HWCAP";
    case AT_SECURE: return "AT_SECURE"; case AT_BASE_PLATFORM: return "AT_BASE_PLATFORM";
    case AT_RANDOM: return "AT_RANDOM"; case AT_HWCAP2: return "AT_HWCAP2";
    case AT_EXECFN: return "AT_EXECFN"; case AT_SYSINFO_EHDR: return "AT_SYSINFO_EHDR";
    case 51: return "AT_MINSIGSTKSZ";
    default: return "?";
    }
}

static int fails = 0;
static void check(const char *what, int ok) {
    printf("check %-40s %s\n", what, ok ? "ok" : "FAIL");
    if (!ok) fails++;
}

int main(int argc, char **argv, char **envp) {
    unsigned long sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    printf("argc=%d\n", argc);
    printf("argv[0] basename=%s\n", base(argv[0]));
    for (int i = 1; i < argc; i++) {
        printf("argv[%d] len=%zu \"%s\" hex:", i, strlen(argv[i]), argv[i]);
        for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++) printf(" %02x", *p);
        printf("\n");
    }
    check("argv[argc] == NULL", argv[argc] == NULL);
    int contiguous = 1;
    for (int i = 0; i + 1 < argc; i++)
        if (argv[i + 1] != argv[i] + strlen(argv[i]) + 1) contiguous = 0;
    check("argv strings contiguous", contiguous);
    check("argv strings above the pointer arrays", (void *)argv[0] > (void *)argv);
    check("envp == argv + argc + 1", envp == argv + argc + 1);

    /* initial stack: [sp] = argc, argv follows */
    check("__libc_stack_end 16-byte aligned", ((unsigned long)__libc_stack_end & 15) == 0);
    check("*(long*)__libc_stack_end == argc", *(long *)__libc_stack_end == argc);
    check("argv == __libc_stack_end + 8", (void *)argv == (char *)__libc_stack_end + 8);
    check("main's sp 16-byte aligned", (sp & 15) == 0);
    {
        /* sp inside a deeper frame with an odd-sized local */
        volatile char pad[40];
        unsigned long sp2;
        __asm__ volatile("mv %0, sp" : "=r"(sp2));
        pad[0] = 1;
        check("nested frame sp aligned", (sp2 & 15) == 0 && pad[0] == 1);
    }

    /* walk the auxiliary vector that follows envp */
    char **e = envp;
    while (*e) e++;
    ElfW(auxv_t) *av = (ElfW(auxv_t) *)(e + 1);
    printf("auxv types:");
    int n = 0;
    for (ElfW(auxv_t) *a = av; ; a++, n++) {
        printf(" %s", auxname(a->a_type));
        if (a->a_type == AT_NULL) break;
    }
    printf("\nauxv entries (excluding AT_NULL): %d\n", n);

    printf("AT_PAGESZ=%lu\n", getauxval(AT_PAGESZ));
    printf("AT_HWCAP=%#lx\n", getauxval(AT_HWCAP));
    errno = 0;
    unsigned long hw2 = getauxval(AT_HWCAP2);
    printf("AT_HWCAP2=%#lx errno=%d\n", hw2, errno);
    printf("AT_PHENT=%lu AT_PHNUM=%lu (ehdr says %u/%u)\n", getauxval(AT_PHENT),
           getauxval(AT_PHNUM), __ehdr_start.e_phentsize, __ehdr_start.e_phnum);
    check("AT_ENTRY == _start", getauxval(AT_ENTRY) == (unsigned long)_start);
    check("AT_PHDR == ehdr + e_phoff",
          getauxval(AT_PHDR) == (unsigned long)&__ehdr_start + __ehdr_start.e_phoff);
    printf("AT_BASE=%#lx AT_FLAGS=%#lx AT_SECURE=%lu AT_CLKTCK=%lu\n", getauxval(AT_BASE),
           getauxval(AT_FLAGS), getauxval(AT_SECURE), getauxval(AT_CLKTCK));
    const char *execfn = (const char *)getauxval(AT_EXECFN);
    printf("AT_EXECFN basename=%s same-as-argv0=%d\n", execfn ? base(execfn) : "(none)",
           execfn && strcmp(execfn, argv[0]) == 0);
    errno = 0;
    unsigned long vdso = getauxval(AT_SYSINFO_EHDR);
    printf("AT_SYSINFO_EHDR present=%d\n", vdso != 0);
    const char *plat = (const char *)getauxval(AT_PLATFORM);
    printf("AT_PLATFORM=%s\n", plat ? plat : "(none)");
    const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
    int allzero = 1;
    if (rnd) {
        volatile unsigned x = 0;
        for (int i = 0; i < 16; i++) { x += rnd[i]; if (rnd[i]) allzero = 0; }
    }
    check("AT_RANDOM points to 16 readable bytes", rnd != NULL);
    check("AT_RANDOM bytes not all zero", !allzero);
    check("AT_RANDOM 16-byte block on the stack", rnd && (unsigned long)rnd > sp);
    printf("args_env done, failures=%d\n", fails);
    return fails ? 1 : 0;
}
