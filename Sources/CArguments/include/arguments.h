#ifndef CARDFEED_ARGUMENTS_H
#define CARDFEED_ARGUMENTS_H

/// The arguments `main` was given, as the C library passed them (see arguments.c): argc, and
/// argv, or 0 and NULL where the C library passed none.
int cardfeed_argc(void);
char *const *cardfeed_argv(void);

#endif
