/* The diffuse colour preview and view draw a unit in: the library's
 * mk_unit_diffuse (morphkit/material.h), quiet when the unit has none. */
#include "cli.h"

bool mk_cli_unit_diffuse(const mk_unit *u, float rgba[4])
{
    mk_error err;
    mk_status st = mk_unit_diffuse(u, NULL, NULL, rgba, &err);
    /* no material is normal; a broken .mtl is worth a line */
    if (st != MK_OK && st != MK_ERR_NOT_FOUND)
        mk_cli_print_error(&err);
    return st == MK_OK;
}
