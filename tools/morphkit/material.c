/* The material preview and view draw a unit in: the library's
 * mk_unit_material (morphkit/material.h), quiet when the unit has none. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool mk_cli_unit_material(const mk_unit *u, float rgba[4], char **texture_path)
{
    mk_error err;
    *texture_path = NULL;
    char *path = NULL;
    mk_status st = mk_unit_material(u, NULL, NULL, rgba, &path, &err);
    /* no material is normal; a broken .mtl is worth a line */
    if (st != MK_OK && st != MK_ERR_NOT_FOUND)
        mk_cli_print_error(&err);
    if (path) { /* into a malloc'ed copy, as the tool frees everything */
        *texture_path = strdup(path);
        mk_free(NULL, path, strlen(path) + 1);
    }
    return st == MK_OK;
}
