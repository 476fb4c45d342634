/* morphkit bench [--quick] [--json] [--simd NAME] [--threads N]
 * Measures the kernels on this machine beside memcpy of the same bytes
 * (the suite lives in bench/suite.c, shared with bench/bench_kernels). */
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "cli.h"

static void help(FILE *out)
{
    fprintf(out, "usage: morphkit bench [--quick] [--json] [--simd NAME] [--threads N]\n\n"
                 "Measures every kernel (float and quantized frame blends, the smooth\n"
                 "pose, glTF morphs dense and sparse) beside a memcpy that moves the same\n"
                 "bytes, in cache (20 000 vertices) and from memory (2 000 000), then one\n"
                 "2M-vertex blend split across threads, and 100 000 players. Prints the\n"
                 "ratio kernel / copy for each, the SIMD variant in use and the measured\n"
                 "memory bandwidth. Takes about half a minute; best of 5 rounds.\n\n"
                 "  --quick      tiny sizes, one round (a smoke test: the numbers mean little)\n"
                 "  --json       one JSON object on stdout\n"
                 "  --simd NAME  use a lower kernel variant: scalar, sse2, avx2, avx512\n"
                 "               (the same as the MK_SIMD environment variable)\n"
                 "  --threads N  threads for the split blend (default 2)\n\n"
                 "exit codes: 0 success, 1 out of memory, 2 usage error\n");
}

int mk_cmd_bench(int argc, char **argv)
{
    mk_bench_options o = {0};
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (mk_cli_is_help(argv[i])) {
            help(stdout);
            return MK_EXIT_OK;
        } else if (strcmp(argv[i], "--quick") == 0) {
            o.quick = true;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--simd") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "scalar") && strcmp(v, "sse2") && strcmp(v, "avx2") && strcmp(v, "avx512")) {
                mk_cli_fail("bench: --simd takes scalar, sse2, avx2 or avx512, not '%s'", v);
                return MK_EXIT_USAGE;
            }
            /* read once, at the first kernel call, which comes later */
            setenv("MK_SIMD", v, 1);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 16) {
                mk_cli_fail("bench: --threads takes 1 to 16, not '%s'", argv[i]);
                return MK_EXIT_USAGE;
            }
            o.threads = (uint32_t)n;
        } else {
            mk_cli_fail("bench: unknown option '%s' (see morphkit bench --help)", argv[i]);
            return MK_EXIT_USAGE;
        }
    }
    mk_bench_result r;
    if (!mk_bench_run(&o, &r))
        return MK_EXIT_INVALID;
    if (json)
        mk_bench_print_json(stdout, &r);
    else
        mk_bench_print_text(stdout, &r);
    return MK_EXIT_OK;
}
