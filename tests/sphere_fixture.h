/* Test and benchmark fixture: a lumpy sphere frame set (header-only, shared
 * by tests/ and bench/). */
#ifndef MK_SPHERE_FIXTURE_H
#define MK_SPHERE_FIXTURE_H

#include <math.h>

#include "morphkit/frame_set.h"

/* A lumpy sphere of `rings` x `segments` quads whose bumps move from frame
 * to frame, with normals: enough curvature that a wrong blend shows.
 * NULL when out of memory. */
static inline mk_frame_set *mk_fx_blob(uint32_t frames, uint32_t rings, uint32_t segments)
{
    mk_frame_set_desc d = {frames, (rings + 1) * (segments + 1), rings * segments * 6, true, false};
    mk_frame_set *set = NULL;
    mk_error err;
    if (mk_frame_set_create(&d, NULL, &set, &err) != MK_OK)
        return NULL;
    const float pi = 3.14159265f;
    for (uint32_t f = 0; f < frames; f++) {
        float *p = mk_frame_set_positions_to_fill(set, f);
        float *n = mk_frame_set_normals_to_fill(set, f);
        for (uint32_t i = 0; i <= rings; i++)
            for (uint32_t j = 0; j <= segments; j++) {
                float th = pi * (float)i / (float)rings, ph = 2 * pi * (float)j / (float)segments;
                float dir[3] = {sinf(th) * cosf(ph), cosf(th), sinf(th) * sinf(ph)};
                float r = 1.0f + 0.25f * sinf(3 * ph + 1.3f * (float)f) * sinf(2 * th);
                uint32_t v = i * (segments + 1) + j;
                for (int c = 0; c < 3; c++) {
                    p[3 * v + c] = r * dir[c] + 0.2f * (float)f * (c == 0);
                    n[3 * v + c] = dir[c];
                }
            }
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < rings; i++)
        for (uint32_t j = 0; j < segments; j++) {
            uint32_t a = i * (segments + 1) + j, b = a + segments + 1;
            uint32_t q[6] = {a, b, a + 1, a + 1, b, b + 1};
            for (int c = 0; c < 6; c++)
                set->indices[k++] = q[c];
        }
    return set;
}

#endif
