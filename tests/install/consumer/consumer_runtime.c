/* The runtime consumer: links morphkit alone (no assets, no GL). */
#include <morphkit/blend.h>
#include <morphkit/error.h>
#include <stdio.h>

int main(void)
{
    float a[3] = {0, 0, 0}, b[3] = {2, 4, 6}, out[3];
    mk_blend_positions(out, a, b, 0.25f, 1);
    mk_error err;
    mk_error_clear(&err);
    int ok = out[0] == 0.5f && out[1] == 1.0f && out[2] == 1.5f && err.code == MK_OK;
    if (ok)
        printf("morphkit consumer ok\n");
    return ok ? 0 : 1;
}
