// renameat2 is not in Swift's Glibc module (it needs _GNU_SOURCE, and glibc before 2.28 has no
// wrapper), so it is called here, through the system call where the wrapper is missing.
#define _GNU_SOURCE
#include "file_swap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#endif

int cardfeed_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#elif defined(__APPLE__)
    return renamex_np(first, second, RENAME_SWAP);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int cardfeed_readdir_inodes_are_stats(const char *path) {
#if defined(__linux__)
    struct statfs system;
    // OVERLAYFS_SUPER_MAGIC: its readdir may give the lower layer's inode numbers.
    return statfs(path, &system) == 0 && system.f_type != 0x794c7630;
#else
    return 0;
#endif
}
