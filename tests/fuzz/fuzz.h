/* Fuzz harnesses: each fuzz_*.c defines the libFuzzer entry point
 * LLVMFuzzerTestOneInput for one parser. Built with clang's -fsanitize=fuzzer
 * they are ordinary libFuzzer targets; otherwise driver.c supplies main(),
 * which runs every seed file given on the command line and a fixed number of
 * deterministic mutations of each (bit flips, byte changes, truncations,
 * splices) and then every file of the kept corpus, so CTest runs them
 * under ASan + UBSan on every build. What follows a load is shared
 * (fuzz_pipeline.h), as is the virtual folder of the multi-file harnesses
 * (fuzz_vfs.h); README.md lists the harnesses and how to add one. */
#ifndef MK_FUZZ_H
#define MK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
