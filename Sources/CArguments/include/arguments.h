#ifndef CARDFEED_ARGUMENTS_H
#define CARDFEED_ARGUMENTS_H

/// The arguments `main` was given, as the C library passed them (see arguments.c): argc, and
/// argv, or 0 and NULL where the C library passed none.
int cardfeed_argc(void);
char *const *cardfeed_argv(void);

/// The file the program was started from, as given to execve (relative to the directory it was
/// started in, where it was given so), or NULL where the kernel did not say.
const char *cardfeed_executable_file(void);

#endif
