#ifndef CARDFEED_FILE_SWAP_H
#define CARDFEED_FILE_SWAP_H

/// Exchanges the two paths in one step (Linux: renameat2 with RENAME_EXCHANGE; macOS:
/// renamex_np with RENAME_SWAP): at every instant each name holds one whole folder. Both must
/// exist on one file system. Returns 0, or -1 with errno set (EINVAL or ENOSYS where the file
/// system or kernel cannot exchange).
int cardfeed_exchange_paths(const char *first, const char *second);

/// 1 when the file system of `path` gives, in `readdir`'s entries, the inode numbers that
/// `stat` gives; 0 where it may not (overlayfs), or where it cannot tell.
int cardfeed_readdir_inodes_are_stats(const char *path);

#endif
