/* The GL consumer: links morphkit_gl and calls one function that needs no
 * GL context (a matrix product), so it runs anywhere. */
#include <morphkit/gl.h>
#include <stdio.h>

int main(void)
{
    float a[16] = {0}, b[16] = {0}, out[16];
    for (int i = 0; i < 4; i++) {
        a[i * 5] = 2.0f; /* 2 * identity */
        b[i * 5] = 1.0f;
    }
    b[12] = 3.0f; /* a translation by (3, 0, 0), column-major */
    mk_gl_mat4_multiply(out, a, b);
    int ok = out[0] == 2.0f && out[5] == 2.0f && out[12] == 6.0f && out[15] == 2.0f;
    if (ok)
        printf("morphkit consumer ok\n");
    return ok ? 0 : 1;
}
