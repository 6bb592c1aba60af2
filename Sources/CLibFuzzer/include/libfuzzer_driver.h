#ifndef CARDFEED_LIBFUZZER_DRIVER_H
#define CARDFEED_LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own driver (compiler-rt's FuzzerInterface.h): parses libFuzzer's options and
/// runs `callback` on each input. Defined by libFuzzer, so it links only into the fuzz build
/// (CARDFEED_LIBFUZZER=1, scripts/fuzz.sh); the normal build never calls it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
