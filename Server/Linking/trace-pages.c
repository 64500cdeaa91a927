// Records which pages of a program's code run, for scripts/link-order (issue 35, idle memory).
//
// Loaded with LD_PRELOAD into gatehouse-server, it removes every permission from the program's
// executable segment before main runs. The first instruction fetched from a page then faults;
// the handler gives the page back its permissions and appends the page's address (as the ELF
// file's virtual address, 8 bytes little-endian) to $TRACE_PAGES_OUT. Each page is recorded once,
// in the order the program first ran it. A diagnostic tool: never part of a build that ships.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long codeStart, codeEnd, loadBase;
static int output = -1;

static void recordPage(int signal, siginfo_t *info, void *context) {
    (void)context;
    unsigned long address = (unsigned long)info->si_addr;
    if (address < codeStart || address >= codeEnd) {
        struct sigaction fallback = {0};
        fallback.sa_handler = SIG_DFL;
        sigaction(signal, &fallback, 0);
        raise(signal);
        return;
    }
    unsigned long page = address & ~4095UL;
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC);
    unsigned long virtualAddress = page - loadBase;
    if (write(output, &virtualAddress, sizeof virtualAddress) != sizeof virtualAddress) _exit(70);
}

__attribute__((constructor)) static void startTracing(void) {
    char program[4096];
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    if (length <= 0) return;
    program[length] = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return;
    char line[8192];
    while (fgets(line, sizeof line, maps)) {
        unsigned long start, end, offset;
        char permissions[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, permissions, &offset, path) < 5) continue;
        if (strcmp(path, program) != 0) continue;
        if (offset == 0) loadBase = start;
        if (strcmp(permissions, "r-xp") == 0) { codeStart = start; codeEnd = end; }
    }
    fclose(maps);
    const char *path = getenv("TRACE_PAGES_OUT");
    if (!codeStart || !path) return;
    output = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (output < 0) return;
    struct sigaction handler = {0};
    handler.sa_sigaction = recordPage;
    handler.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&handler.sa_mask);
    sigaction(SIGSEGV, &handler, 0);
    mprotect((void *)codeStart, codeEnd - codeStart, PROT_NONE);
}
