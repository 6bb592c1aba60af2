// The program's arguments as main received them. Swift's CommandLine.arguments reads
// /proc/self/cmdline on Linux: in a chroot or container without /proc it is empty, and every
// command would see no arguments at all. glibc calls each function of .init_array with main's
// argc, argv and envp before main (as Rust's standard library reads them), so they are kept here.
#include "arguments.h"

#include <sys/auxv.h>

static int saved_argc;
static char *const *saved_argv;

static void save_arguments(int argc, char *const *argv, char *const *envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const save_arguments_at_start)(int, char *const *, char *const *) = save_arguments;

int cardfeed_argc(void) { return saved_argc; }
char *const *cardfeed_argv(void) { return saved_argv; }

// The path execve was given, which the kernel passes to every program beside its arguments:
// where /proc/self/exe cannot be read, the one way left to the program's own file (Foundation's
// Bundle.main stops the process there). A shell that found the program on PATH gives the path it
// found.
const char *cardfeed_executable_file(void) { return (const char *)getauxval(AT_EXECFN); }
