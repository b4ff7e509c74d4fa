# The rules every folder of committed RISC-V test programs shares (included by
# integration-tests/src/test/c/Makefile and repl/src/test/c/Makefile after they set BINS and
# CFLAGS): `make` builds bin/NAME from NAME.c with the cross compiler unless the folder has a rule
# of its own, `make clean` removes them.
CC = riscv64-linux-gnu-gcc

all: $(BINS)

bin/%: %.c
	mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $<

clean:
	rm -f $(BINS)
