/* Camera matrices (column-major, as OpenGL takes them). */
#include <math.h>
#include <string.h>

#include "morphkit/gl.h"

void mk_gl_mat4_multiply(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

void mk_gl_orbit_camera(const float center[3], float radius, float yaw, float pitch, float fov_y,
                        float aspect, float out[16])
{
    if (!(radius > 0.0f))
        radius = 1.0f;
    if (!(aspect > 0.0f))
        aspect = 1.0f;
    /* The sphere fits the narrower field of view: distance = r / sin(fov/2). */
    float half_y = fov_y * 0.5f;
    float half_x = atanf(tanf(half_y) * aspect);
    float half = half_x < half_y ? half_x : half_y;
    float dist = radius / sinf(half);
    /* Eye direction: yaw 0 puts the eye on +z looking along -z. */
    float dir[3] = {cosf(pitch) * sinf(yaw), sinf(pitch), cosf(pitch) * cosf(yaw)};
    float eye[3] = {center[0] + dist * dir[0], center[1] + dist * dir[1],
                    center[2] + dist * dir[2]};
    /* Camera basis: f forward, s right, u up (look-at with +y up). */
    float f[3] = {-dir[0], -dir[1], -dir[2]};
    float s[3] = {f[1] * 0.0f - f[2] * 1.0f, f[2] * 0.0f - f[0] * 0.0f, f[0] * 1.0f - f[1] * 0.0f};
    float sl = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    if (sl < 1e-6f) { /* looking straight up or down */
        s[0] = 1.0f, s[1] = 0.0f, s[2] = 0.0f;
        sl = 1.0f;
    }
    for (int i = 0; i < 3; i++)
        s[i] /= sl;
    float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
    float view[16] = {s[0], u[0], -f[0], 0,
                      s[1], u[1], -f[1], 0,
                      s[2], u[2], -f[2], 0,
                      -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]),
                      -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
                      (f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2]), 1};
    float near = dist - radius * 1.5f, far = dist + radius * 1.5f;
    if (near < dist * 0.01f)
        near = dist * 0.01f;
    float t = 1.0f / tanf(half_y);
    float proj[16] = {t / aspect, 0, 0, 0,
                      0, t, 0, 0,
                      0, 0, (far + near) / (near - far), -1,
                      0, 0, 2.0f * far * near / (near - far), 0};
    mk_gl_mat4_multiply(out, proj, view);
}
