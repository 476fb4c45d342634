/* placeholder */
#include "cli.h"
int mk_cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return MK_EXIT_USAGE;
}
