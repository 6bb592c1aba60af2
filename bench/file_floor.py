#!/usr/bin/env python3
"""What creating N small files in one new folder costs on this machine, before any tool renders
a byte: the floor under a build that writes a page per card.

usage: bench/file_floor.py N SIZE FOLDER [THREADS [SUBFOLDERS]]

Creates FOLDER/card-<hex>.html, N files of SIZE bytes each, the way CardFeed writes a card's
page (open with O_CREAT|O_TRUNC, one write, close), from THREADS threads (default 1; CardFeed
writes card pages from both rendering threads), and prints wall time, user and system CPU
seconds and microseconds of CPU a file. The names are as long as a card page's (a 24-digit
hex id), in no order, as a build's are. With SUBFOLDERS (default 1), the files are spread over
that many subfolders of FOLDER by their names, so that the threads seldom wait for the same
folder's lock. FOLDER must not exist; it is left for the caller to remove (see bench/README.md
on removing many files before timing).
"""
import os
import resource
import sys
import threading
import time


def create(folder: str, indices: range, body: bytes, subfolders: int) -> None:
    for index in indices:
        key = (index * 2654435761) % (1 << 96)
        name = "card-%024x.html" % key
        if subfolders > 1:
            name = os.path.join("%02x" % (key % subfolders), name)
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, body)
        finally:
            os.close(fd)


def main() -> None:
    if len(sys.argv) not in (4, 5, 6):
        sys.exit(__doc__)
    count, size, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    threads = int(sys.argv[4]) if len(sys.argv) >= 5 else 1
    subfolders = int(sys.argv[5]) if len(sys.argv) == 6 else 1
    os.mkdir(folder)
    for subfolder in range(subfolders if subfolders > 1 else 0):
        os.mkdir(os.path.join(folder, "%02x" % subfolder))
    body = b"x" * size
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    workers = [threading.Thread(target=create, args=(folder, range(t, count, threads), body, subfolders)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    spread = f" in {subfolders} subfolders" if subfolders > 1 else ""
    print(f"{count} files of {size} bytes{spread}, {threads} thread(s): {wall:.2f} s wall, "
          f"{user:.2f} s user, {system:.2f} s system, {(user + system) / count * 1e6:.1f} µs CPU a file")


if __name__ == "__main__":
    main()
