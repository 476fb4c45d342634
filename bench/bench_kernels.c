/* Every kernel beside memcpy of the same bytes, in cache and from memory,
 * threads and players: the suite `morphkit bench` prints (bench/suite.c).
 *
 *   bench_kernels [--quick] [--json]
 *
 * --quick runs tiny sizes once (the CTest smoke test; nothing about time is
 * asserted). */
#include <string.h>

#include "suite.h"

int main(int argc, char **argv)
{
    mk_bench_options o = {0};
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            o.quick = true;
        else if (strcmp(argv[i], "--json") == 0)
            json = true;
    }
    mk_bench_result r;
    if (!mk_bench_run(&o, &r))
        return 1;
    if (json)
        mk_bench_print_json(stdout, &r);
    else
        mk_bench_print_text(stdout, &r);
    return 0;
}
