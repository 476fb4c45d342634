/* preview and view in a build without the GL layer (-DMK_BUILD_GL=OFF):
 * both say so and exit with the usage code, 2. Compiled instead of
 * cmd_preview.c, cmd_view.c, preview_scene.c and image_write.c. */
#include "cli.h"

static int no_gl(const char *command)
{
    mk_cli_fail("%s: this build has no GL layer (built with MK_BUILD_GL=OFF)", command);
    return MK_EXIT_USAGE;
}

int mk_cmd_preview(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return no_gl("preview");
}

int mk_cmd_view(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return no_gl("view");
}
