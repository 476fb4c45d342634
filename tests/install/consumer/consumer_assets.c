/* The assets consumer: one runtime and one assets call, so both libraries
 * must link (morphkit_assets brings morphkit along). */
#include <morphkit/morphkit.h>
#include <stdio.h>

int main(void)
{
    float a[3] = {0, 0, 0}, b[3] = {2, 4, 6}, out[3];
    mk_blend_positions(out, a, b, 0.5f, 1);
    mk_obj *obj = NULL;
    mk_error err;
    const char text[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    if (mk_obj_parse(text, sizeof text - 1, "<memory>", NULL, NULL, &obj, &err) != MK_OK)
        return 1;
    int ok = out[1] == 2.0f && obj->triangle_count == 1;
    mk_obj_destroy(obj);
    if (ok)
        printf("morphkit consumer ok\n");
    return ok ? 0 : 1;
}
