/* gen_demo: writes morphkit's demo units (committed under assets/demo).
 *
 * Usage: gen_demo OUT_DIR
 *
 * Writes two unit folders (docs/units.md), one OBJ per frame:
 *
 *   OUT_DIR/knight/  a low-poly spearman built from 19 tapered boxes on a
 *                    15-joint skeleton: Idle_1..4 (breathing, head turn),
 *                    Walk_1..6 (a stride cycle; Walk_6 leads into Walk_1,
 *                    heel strikes on frames 2 and 5), Attack_1..5 (ready,
 *                    wind-up, thrust, hold, recover), plus animation.cfg.
 *   OUT_DIR/wing/    a small body with two thin wings hinged at its sides:
 *                    Flap_1..4 (wings up 60 degrees, level, down 60 degrees,
 *                    level: a clean up-and-down cycle) and Beat_1..2 (only
 *                    up and down). Beat exists to show
 *                    what linear blending does to a rotation: every vertex
 *                    moves along the straight chord between the two poses,
 *                    so at mid-blend the wing tips are at half the span and
 *                    the wings look shrunk. Flap's level poses between the
 *                    extremes give `Interpolation Flap smooth` (a curve
 *                    through the frames) something to bend the path with.
 *
 * Every frame of a unit has the same vertices in the same order and the same
 * face list (quads, counter-clockwise seen from outside), the same UVs, and
 * flat per-face normals computed from the posed geometry. The output is
 * byte-identical on every run: no clock, no randomness, "%.6f" everywhere
 * with -0.000000 written as 0.000000, files opened in binary mode.
 *
 * Conventions: metres, +Y up, units face +Z, the knight's right side is -X.
 * Rotation angles are degrees; a joint's rotation is Ry(yaw) Rx(pitch)
 * Rz(roll). A positive pitch tips a part that points up towards +Z (forward)
 * and swings a part that hangs down backwards.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <direct.h>
#define make_dir(path) _mkdir(path)
#else
#include <sys/stat.h>
#define make_dir(path) mkdir((path), 0777)
#endif

#define PI 3.14159265358979323846

/* Capacities: the demo units are small and fixed, so exceeding one is a bug
 * in this file, reported by die(). */
#define MAX_JOINTS 16
#define MAX_VERTS 256
#define MAX_FACES 192
#define MAX_HEXAS 20
#define MAX_UVS (4 * MAX_FACES)
#define MAX_FRAMES 8

/* UV atlas: one cell per hexahedron, each cell split 3 x 2 for its faces. */
#define ATLAS_COLS 5
#define ATLAS_ROWS 4

typedef struct {
    double x, y, z;
} vec3;

/* A 3x3 matrix in a struct, so it passes by value and const works. */
typedef struct {
    double a[3][3];
} mat3;

/* p' = m p + t */
typedef struct {
    mat3 m;
    vec3 t;
} xform;

typedef struct {
    int parent; /* -1 for the root; parents come before their children */
    vec3 pivot; /* in rest-pose model space */
} joint_def;

typedef struct {
    vec3 rot;     /* degrees: x = pitch, y = yaw, z = roll */
    vec3 move;    /* translation in the parent's frame */
    int absolute; /* rot is the model-space orientation, not relative to the parent */
} joint_pose;

/* A mesh in its rest pose: every vertex follows one joint rigidly. Faces are
 * grouped in convex hexahedra ("hexas"), which is what the outward-normal
 * check uses as the inside. */
typedef struct {
    int nverts, nfaces, nhexas, nuvs;
    vec3 rest[MAX_VERTS];
    int joint[MAX_VERTS];
    int sole[MAX_VERTS]; /* 1 for vertices that may touch the ground */
    int hexa[MAX_HEXAS][8];
    int face_v[MAX_FACES][4];
    int face_vt[MAX_FACES][4];
    int face_hexa[MAX_FACES];
    double uv[MAX_UVS][2];
} mesh;

typedef struct {
    const char *name; /* unit name, the OBJ's `o` */
    const joint_def *joints;
    int njoints;
    const mesh *mesh;
    int grounded; /* shift each frame so its lowest sole vertex is at y = 0 */
} unit;

typedef struct {
    joint_pose j[MAX_JOINTS];
} pose;

static void die(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("gen_demo: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

/* ---- small vector and transform helpers --------------------------------- */

static vec3 v3(double x, double y, double z)
{
    vec3 v = {x, y, z};
    return v;
}

static vec3 v_add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec3 v_sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec3 v_scale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static double v_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static vec3 m_apply(mat3 m, vec3 p)
{
    return v3(m.a[0][0] * p.x + m.a[0][1] * p.y + m.a[0][2] * p.z,
              m.a[1][0] * p.x + m.a[1][1] * p.y + m.a[1][2] * p.z,
              m.a[2][0] * p.x + m.a[2][1] * p.y + m.a[2][2] * p.z);
}

static mat3 m_mul(mat3 x, mat3 y)
{
    mat3 out;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out.a[r][c] = x.a[r][0] * y.a[0][c] + x.a[r][1] * y.a[1][c] + x.a[r][2] * y.a[2][c];
    return out;
}

static vec3 x_apply(const xform *x, vec3 p) { return v_add(m_apply(x->m, p), x->t); }

static double rad(double degrees) { return degrees * (PI / 180.0); }

/* Ry(yaw) Rx(pitch) Rz(roll): roll first, then pitch, yaw last, so a yawed
 * torso keeps its pitch about its own side-to-side axis. */
static mat3 euler_matrix(vec3 deg)
{
    double cx = cos(rad(deg.x)), sx = sin(rad(deg.x));
    double cy = cos(rad(deg.y)), sy = sin(rad(deg.y));
    double cz = cos(rad(deg.z)), sz = sin(rad(deg.z));
    mat3 rx = {{{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}}};
    mat3 ry = {{{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}}};
    mat3 rz = {{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}}};
    return m_mul(m_mul(ry, rx), rz);
}

/* Newell's normal of a quad: robust for slightly non-planar or tiny quads. */
static vec3 quad_normal(const vec3 p[4])
{
    vec3 n = {0, 0, 0};
    for (int i = 0; i < 4; i++) {
        vec3 a = p[i], b = p[(i + 1) % 4];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    double len = sqrt(v_dot(n, n));
    return len > 0 ? v_scale(n, 1.0 / len) : n;
}

static vec3 centroid(const vec3 *pos, const int *idx, int n)
{
    vec3 c = {0, 0, 0};
    for (int i = 0; i < n; i++)
        c = v_add(c, pos[idx[i]]);
    return v_scale(c, 1.0 / n);
}

/* ---- building meshes ----------------------------------------------------- */

/* The six faces of a hexa by corner number (bit 0: x side, bit 1: y side,
 * bit 2: z side), each counter-clockwise seen from outside for an unmirrored
 * box: +X, -X, +Y, -Y, +Z, -Z. */
enum { FACE_POS_X = 1, FACE_NEG_X = 2, FACE_ALL = 63 };
static const int hexa_faces[6][4] = {
    {1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1},
};

static int add_vertex(mesh *m, vec3 p, int joint, int sole)
{
    if (m->nverts >= MAX_VERTS)
        die("too many vertices");
    m->rest[m->nverts] = p;
    m->joint[m->nverts] = joint;
    m->sole[m->nverts] = sole;
    return m->nverts++;
}

/* Four UVs for face `face` of hexa `cell`: its own sub-rectangle of the
 * atlas, inset a little so texture filtering does not bleed between faces. */
static void add_face_uvs(mesh *m, int cell, int face, int out[4])
{
    const double inset = 0.1;
    double cw = 1.0 / ATLAS_COLS, ch = 1.0 / ATLAS_ROWS;
    double sw = cw / 3, sh = ch / 2;
    double u0 = (cell % ATLAS_COLS) * cw + (face % 3) * sw;
    double v0 = (cell / ATLAS_COLS) * ch + (face / 3) * sh;
    const double corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    if (m->nuvs + 4 > MAX_UVS)
        die("too many UVs");
    for (int i = 0; i < 4; i++) {
        m->uv[m->nuvs][0] = u0 + sw * (inset + (1 - 2 * inset) * corner[i][0]);
        m->uv[m->nuvs][1] = v0 + sh * (inset + (1 - 2 * inset) * corner[i][1]);
        out[i] = m->nuvs++;
    }
}

/* Adds the faces in face_mask of the hexa with these 8 vertices. Mirrored
 * corner layouts (a left wing built towards -X) would come out inside-out
 * with the fixed table, so each face is checked against the hexa's centre
 * and reversed if needed; posing is rigid, so the order stays right. */
static void add_hexa(mesh *m, const int corners[8], unsigned face_mask)
{
    if (m->nhexas >= MAX_HEXAS || m->nhexas >= ATLAS_COLS * ATLAS_ROWS)
        die("too many hexahedra");
    int h = m->nhexas++;
    memcpy(m->hexa[h], corners, sizeof m->hexa[h]);
    vec3 centre = centroid(m->rest, corners, 8);
    for (int f = 0; f < 6; f++) {
        if (!(face_mask & (1u << f)))
            continue;
        if (m->nfaces >= MAX_FACES)
            die("too many faces");
        int *fv = m->face_v[m->nfaces];
        vec3 p[4];
        for (int i = 0; i < 4; i++) {
            fv[i] = corners[hexa_faces[f][i]];
            p[i] = m->rest[fv[i]];
        }
        if (v_dot(quad_normal(p), v_sub(centroid(m->rest, fv, 4), centre)) < 0) {
            int t = fv[1];
            fv[1] = fv[3];
            fv[3] = t;
        }
        add_face_uvs(m, h, f, m->face_vt[m->nfaces]);
        m->face_hexa[m->nfaces++] = h;
    }
}

/* A box along Y from y0 to y1, centred on (cx, cz), whose half width (x) and
 * half depth (z) go linearly from (bw, bd) at y0 to (tw, td) at y1. */
typedef struct {
    int joint;
    double cx, cz, y0, y1;
    double bw, bd, tw, td;
    int sole;
} box_def;

static void add_box(mesh *m, const box_def *b)
{
    int corners[8];
    for (int i = 0; i < 8; i++) {
        int top = (i >> 1) & 1;
        double sx = (i & 1) ? 1 : -1, sz = (i & 4) ? 1 : -1;
        double hw = top ? b->tw : b->bw, hd = top ? b->td : b->bd;
        vec3 p = v3(b->cx + sx * hw, top ? b->y1 : b->y0, b->cz + sz * hd);
        corners[i] = add_vertex(m, p, b->joint, b->sole);
    }
    add_hexa(m, corners, FACE_ALL);
}

/* A wing: a thin closed strip along X with `segments` hexas. Station s is at
 * x = root_x + dir * span * s / segments; chord and thickness taper
 * linearly, and the chord's centre sweeps back towards the tip. Inner
 * station faces are shared, so only the two end caps close the strip. */
typedef struct {
    int joint;
    double root_x, dir, span;
    double root_chord, tip_chord, root_thick, tip_thick, sweep;
    int segments;
} wing_def;

static void add_wing(mesh *m, const wing_def *w)
{
    int base = m->nverts;
    for (int s = 0; s <= w->segments; s++) {
        double t = (double)s / w->segments;
        double x = w->root_x + w->dir * w->span * t;
        double hc = 0.5 * (w->root_chord + (w->tip_chord - w->root_chord) * t);
        double ht = 0.5 * (w->root_thick + (w->tip_thick - w->root_thick) * t);
        double cz = -w->sweep * t;
        for (int k = 0; k < 4; k++) /* k = y bit * 2 + z bit */
            add_vertex(m, v3(x, (k & 2) ? ht : -ht, cz + ((k & 1) ? hc : -hc)), w->joint, 0);
    }
    for (int s = 0; s < w->segments; s++) {
        int corners[8];
        for (int i = 0; i < 8; i++)
            corners[i] = base + (s + (i & 1)) * 4 + ((i >> 1) & 1) * 2 + ((i >> 2) & 1);
        unsigned mask = FACE_ALL;
        if (s > 0)
            mask &= ~(unsigned)FACE_NEG_X;
        if (s < w->segments - 1)
            mask &= ~(unsigned)FACE_POS_X;
        add_hexa(m, corners, mask);
    }
}

/* ---- posing ------------------------------------------------------------- */

/* Forward kinematics: a joint turns its children about its pivot. With
 * `absolute`, a joint keeps a model-space orientation however its parent
 * turns (a spear held upright while the arm swings) and the parent only
 * carries its pivot along. */
static void pose_joints(const unit *u, const pose *p, xform world[])
{
    for (int j = 0; j < u->njoints; j++) {
        const joint_def *d = &u->joints[j];
        const joint_pose *jp = &p->j[j];
        xform parent = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0, 0, 0}};
        if (d->parent >= 0)
            parent = world[d->parent];
        mat3 r = euler_matrix(jp->rot);
        world[j].m = jp->absolute ? r : m_mul(parent.m, r);
        vec3 pivot_now = x_apply(&parent, v_add(d->pivot, jp->move));
        world[j].t = v_sub(pivot_now, m_apply(world[j].m, d->pivot));
    }
}

static void pose_mesh(const unit *u, const pose *p, vec3 out[])
{
    xform world[MAX_JOINTS];
    const mesh *m = u->mesh;
    pose_joints(u, p, world);
    for (int i = 0; i < m->nverts; i++)
        out[i] = x_apply(&world[m->joint[i]], m->rest[i]);
    if (!u->grounded)
        return;
    /* Legs bend and spread, so the hip height that keeps the standing foot
     * on the floor changes per frame: find it rather than hand-tune it. */
    double low = HUGE_VAL;
    for (int i = 0; i < m->nverts; i++)
        if (m->sole[i] && out[i].y < low)
            low = out[i].y;
    for (int i = 0; i < m->nverts; i++)
        out[i].y -= low;
}

/* Dies unless every face's normal points away from its hexa's centre. */
static void check_outward(const mesh *m, const vec3 pos[], const char *what)
{
    for (int f = 0; f < m->nfaces; f++) {
        vec3 p[4];
        for (int i = 0; i < 4; i++)
            p[i] = pos[m->face_v[f][i]];
        vec3 n = quad_normal(p);
        vec3 out = v_sub(centroid(pos, m->face_v[f], 4), centroid(pos, m->hexa[m->face_hexa[f]], 8));
        if (v_dot(n, n) < 0.5 || v_dot(n, out) <= 0)
            die("%s: face %d is degenerate or points inwards", what, f + 1);
    }
}

/* ---- writing ------------------------------------------------------------ */

/* "%.6f" with negative zero written as zero, so output does not depend on
 * which side of zero a rounding error fell. */
static void fmt_num(char buf[32], double v)
{
    snprintf(buf, 32, "%.6f", v);
    if (strcmp(buf, "-0.000000") == 0)
        strcpy(buf, "0.000000");
}

static void put_vec(FILE *f, const char *tag, const double *v, int n)
{
    fputs(tag, f);
    for (int i = 0; i < n; i++) {
        char buf[32];
        fmt_num(buf, v[i]);
        fprintf(f, " %s", buf);
    }
    fputc('\n', f);
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path)
        die("path too long: %s/%s", dir, name);
    FILE *f = fopen(path, "wb"); /* binary: the same bytes on every platform */
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    return f;
}

static void close_out(FILE *f, const char *dir, const char *name)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        die("error writing %s/%s", dir, name);
}

static void write_frame(const char *dir, const unit *u, const char *anim, int number, const vec3 pos[])
{
    const mesh *m = u->mesh;
    char name[128];
    snprintf(name, sizeof name, "%s_%d.obj", anim, number);
    check_outward(m, pos, name);
    FILE *f = open_out(dir, name);
    fprintf(f, "# %s frame %s %d: generated by tools/gen_demo/gen_demo.c, do not edit\n", u->name, anim,
            number);
    fprintf(f, "# %d vertices, %d quads; flat normals, one per face\n", m->nverts, m->nfaces);
    fprintf(f, "o %s\n", u->name);
    for (int i = 0; i < m->nverts; i++)
        put_vec(f, "v", &pos[i].x, 3);
    for (int i = 0; i < m->nuvs; i++)
        put_vec(f, "vt", m->uv[i], 2);
    for (int i = 0; i < m->nfaces; i++) {
        vec3 p[4];
        for (int k = 0; k < 4; k++)
            p[k] = pos[m->face_v[i][k]];
        vec3 n = quad_normal(p);
        put_vec(f, "vn", &n.x, 3);
    }
    fputs("s off\n", f);
    for (int i = 0; i < m->nfaces; i++) {
        fputs("f", f);
        for (int k = 0; k < 4; k++)
            fprintf(f, " %d/%d/%d", m->face_v[i][k] + 1, m->face_vt[i][k] + 1, i + 1);
        fputc('\n', f);
    }
    close_out(f, dir, name);
}

static void write_animation(const char *dir, const unit *u, const char *anim, const pose *poses, int count)
{
    vec3 pos[MAX_VERTS];
    for (int k = 0; k < count; k++) {
        pose_mesh(u, &poses[k], pos);
        write_frame(dir, u, anim, k + 1, pos);
    }
}

static void write_text(const char *dir, const char *name, const char *text)
{
    FILE *f = open_out(dir, name);
    fputs(text, f);
    close_out(f, dir, name);
}

static void make_unit_dir(const char *out_dir, const char *name, char *path, size_t size)
{
    int n = snprintf(path, size, "%s/%s", out_dir, name);
    if (n < 0 || (size_t)n >= size)
        die("path too long: %s/%s", out_dir, name);
    if (make_dir(out_dir) != 0 && errno != EEXIST)
        die("cannot create %s: %s", out_dir, strerror(errno));
    if (make_dir(path) != 0 && errno != EEXIST)
        die("cannot create %s: %s", path, strerror(errno));
}

/* ---- the knight ---------------------------------------------------------- */

enum {
    K_ROOT, K_SPINE, K_NECK,
    K_SHOULDER_R, K_ELBOW_R, K_GRIP_R,
    K_SHOULDER_L, K_ELBOW_L, K_GRIP_L,
    K_HIP_R, K_KNEE_R, K_ANKLE_R,
    K_HIP_L, K_KNEE_L, K_ANKLE_L,
    K_JOINTS
};

static const joint_def knight_joints[K_JOINTS] = {
    [K_ROOT] = {-1, {0, 0.93, 0}},
    [K_SPINE] = {K_ROOT, {0, 1.00, 0}},
    [K_NECK] = {K_SPINE, {0, 1.47, 0}},
    [K_SHOULDER_R] = {K_SPINE, {-0.29, 1.40, 0}},
    [K_ELBOW_R] = {K_SHOULDER_R, {-0.29, 1.12, 0}},
    [K_GRIP_R] = {K_ELBOW_R, {-0.29, 0.84, 0}},
    [K_SHOULDER_L] = {K_SPINE, {0.29, 1.40, 0}},
    [K_ELBOW_L] = {K_SHOULDER_L, {0.29, 1.12, 0}},
    [K_GRIP_L] = {K_ELBOW_L, {0.29, 0.96, 0}},
    [K_HIP_R] = {K_ROOT, {-0.10, 0.90, 0}},
    [K_KNEE_R] = {K_HIP_R, {-0.10, 0.49, 0}},
    [K_ANKLE_R] = {K_KNEE_R, {-0.10, 0.08, 0}},
    [K_HIP_L] = {K_ROOT, {0.10, 0.90, 0}},
    [K_KNEE_L] = {K_HIP_L, {0.10, 0.49, 0}},
    [K_ANKLE_L] = {K_KNEE_L, {0.10, 0.08, 0}},
};

/* Rest pose: standing straight, arms hanging, spear upright through the
 * right fist, shield on the outside of the left forearm. */
static const box_def knight_boxes[] = {
    /* joint      cx     cz     y0    y1    bw     bd     tw     td   sole */
    {K_ROOT, 0, 0, 0.84, 1.02, 0.17, 0.10, 0.18, 0.11, 0},          /* pelvis */
    {K_SPINE, 0, 0, 1.00, 1.46, 0.17, 0.11, 0.22, 0.13, 0},         /* torso */
    {K_NECK, 0, 0.01, 1.48, 1.74, 0.10, 0.11, 0.09, 0.10, 0},       /* helmet */
    {K_NECK, 0, -0.01, 1.74, 1.83, 0.015, 0.10, 0.015, 0.07, 0},    /* crest */
    {K_SHOULDER_R, -0.29, 0, 1.10, 1.45, 0.06, 0.06, 0.07, 0.07, 0}, /* upper arm */
    {K_ELBOW_R, -0.29, 0, 0.88, 1.14, 0.05, 0.05, 0.055, 0.055, 0}, /* forearm */
    {K_ELBOW_R, -0.29, 0, 0.78, 0.89, 0.045, 0.05, 0.045, 0.05, 0}, /* fist */
    {K_SHOULDER_L, 0.29, 0, 1.10, 1.45, 0.06, 0.06, 0.07, 0.07, 0},
    {K_ELBOW_L, 0.29, 0, 0.88, 1.14, 0.05, 0.05, 0.055, 0.055, 0},
    {K_ELBOW_L, 0.29, 0, 0.78, 0.89, 0.045, 0.05, 0.045, 0.05, 0},
    {K_HIP_R, -0.10, 0, 0.47, 0.92, 0.07, 0.07, 0.085, 0.085, 0},   /* thigh */
    {K_KNEE_R, -0.10, 0, 0.07, 0.50, 0.055, 0.06, 0.065, 0.07, 0},  /* shin */
    {K_ANKLE_R, -0.10, 0.05, 0, 0.08, 0.055, 0.12, 0.05, 0.10, 1},  /* foot */
    {K_HIP_L, 0.10, 0, 0.47, 0.92, 0.07, 0.07, 0.085, 0.085, 0},
    {K_KNEE_L, 0.10, 0, 0.07, 0.50, 0.055, 0.06, 0.065, 0.07, 0},
    {K_ANKLE_L, 0.10, 0.05, 0, 0.08, 0.055, 0.12, 0.05, 0.10, 1},
    {K_GRIP_R, -0.29, 0, -0.01, 1.89, 0.018, 0.018, 0.018, 0.018, 0}, /* spear shaft */
    {K_GRIP_R, -0.29, 0, 1.89, 2.10, 0.035, 0.012, 0.004, 0.003, 0},  /* spear head */
    {K_GRIP_L, 0.37, 0, 0.72, 1.18, 0.02, 0.10, 0.02, 0.19, 0},       /* shield */
};

static void build_knight(mesh *m)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < sizeof knight_boxes / sizeof knight_boxes[0]; i++)
        add_box(m, &knight_boxes[i]);
}

static void set_rot(pose *p, int joint, double pitch, double yaw, double roll)
{
    p->j[joint].rot = v3(pitch, yaw, roll);
}

/* A leg by what it does: `forward` swings the thigh forward, `knee` bends the
 * shin back, `toe_down` tips the foot from flat (0 keeps the sole level). */
static void set_leg(pose *p, int hip, double forward, double knee, double toe_down)
{
    double splay = hip == K_HIP_R ? -3 : 3; /* feet a little apart */
    set_rot(p, hip, -forward, 0, splay);
    set_rot(p, hip + 1, knee, 0, 0);
    set_rot(p, hip + 2, forward - knee + toe_down, 0, -splay);
}

/* An arm: `forward` raises the upper arm forwards, `elbow` bends the forearm
 * forwards. The held item (grip joint) keeps its own model-space
 * orientation: spear pitch 0 is upright, 90 points it forwards. */
static void set_arm(pose *p, int shoulder, double forward, double elbow, double held_pitch, double held_yaw)
{
    double out = shoulder == K_SHOULDER_R ? -6 : 6; /* arms clear the torso */
    set_rot(p, shoulder, -forward, 0, out);
    set_rot(p, shoulder + 1, -elbow, 0, 0);
    set_rot(p, shoulder + 2, held_pitch, held_yaw, 0);
    p->j[shoulder + 2].absolute = 1;
}

/* The stance every animation varies: spear upright in front of the right
 * shoulder, shield held front-left, turned to face half forwards. */
static void knight_stance(pose *p)
{
    memset(p, 0, sizeof *p);
    set_leg(p, K_HIP_R, 0, 4, 0);
    set_leg(p, K_HIP_L, 0, 4, 0);
    set_arm(p, K_SHOULDER_R, 5, 50, 0, 0);
    set_arm(p, K_SHOULDER_L, 10, 60, 0, -40);
}

/* Breathing: the chest rises and tips back a little, the head looks left,
 * ahead, right, ahead. Sine phases make Idle_4 lead back into Idle_1. */
static void knight_idle(int k, pose *p)
{
    double phase = 2 * PI * k / 4;
    double breath = sin(phase);
    knight_stance(p);
    p->j[K_SPINE].move = v3(0, 0.012 * breath, 0);
    set_rot(p, K_SPINE, -1.5 * breath, 0, 0);
    set_rot(p, K_NECK, 0, 12 * cos(phase), 0);
    set_arm(p, K_SHOULDER_R, 5, 50 + 3 * breath, 0, 0);
    set_arm(p, K_SHOULDER_L, 10, 60 + 3 * breath, 0, -40);
}

/* A stride cycle of 6 frames with phase 2 pi k / 6, so a 7th frame would
 * equal the 1st. The right thigh is furthest forward (heel strike) on frame
 * 2, the left on frame 5. A leg bends its knee while it swings through,
 * most once the thigh is ahead, so the shin does not kick up behind. */
static void swing_leg(pose *p, int hip, double a)
{
    double forward = cos(a), swing = fmax(0, -sin(a));
    set_leg(p, hip, 24 * forward, 6 + swing * (38 + 18 * forward), 10 * swing);
}

static void knight_walk(int k, pose *p)
{
    double a = 2 * PI * (k - 1) / 6; /* 0 at the right heel strike */
    double right = cos(a), left = -right;
    knight_stance(p);
    swing_leg(p, K_HIP_R, a);
    swing_leg(p, K_HIP_L, a + PI);
    /* Hips turn with the forward leg, the chest turns back against them. */
    set_rot(p, K_ROOT, 0, 5 * right, 0);
    set_rot(p, K_SPINE, 3, -9 * right, 0);
    /* Arms swing against the legs: the spear arm less, it carries weight. */
    set_arm(p, K_SHOULDER_R, 5 + 8 * left, 50, 4 * left, 0);
    set_arm(p, K_SHOULDER_L, 10 + 18 * right, 60, 0, -40);
}

/* Ready, wind-up, thrust, hold, recover. The thrust lunges onto the left
 * foot and turns the chest so the spear arm reaches; recover is half way
 * back to Idle_1, which the Next directive blends into. */
static void knight_attack(int k, pose *p)
{
    /*                         ready  windup thrust  hold  recover */
    static const double lunge[5] = {0.2, 0.5, 1.0, 1.0, 0.35};
    static const double chest_yaw[5] = {-10, -28, 22, 24, -4};
    static const double chest_pitch[5] = {2, -2, 10, 12, 3};
    static const double arm_fwd[5] = {15, -25, 80, 84, 25};
    static const double elbow[5] = {60, 100, 8, 0, 50};
    static const double spear_pitch[5] = {55, 88, 90, 90, 30};
    static const double shield_fwd[5] = {20, 40, 15, 15, 12};
    static const double step[5] = {0, 0, 0.10, 0.12, 0.04};
    knight_stance(p);
    set_leg(p, K_HIP_L, 38 * lunge[k], 42 * lunge[k], 0);
    set_leg(p, K_HIP_R, -22 * lunge[k], 6, 0);
    p->j[K_ROOT].move = v3(0, 0, step[k]);
    set_rot(p, K_SPINE, chest_pitch[k], chest_yaw[k], 0);
    set_rot(p, K_NECK, 0, -0.6 * chest_yaw[k], 0); /* eyes stay on the target */
    set_arm(p, K_SHOULDER_R, arm_fwd[k], elbow[k], spear_pitch[k], 0);
    set_arm(p, K_SHOULDER_L, shield_fwd[k], 70, 0, -55);
}

static const char knight_cfg[] =
    "# knight: generated by tools/gen_demo (tools/gen_demo/gen_demo.c), do not edit.\n"
    "# Idle: 4 breathing frames, looping.\n"
    "FrameTime Idle 250\n"
    "# Walk: a 6-frame stride cycle; Walk_6 leads back into Walk_1.\n"
    "# Heel strikes are on frames 2 (right foot) and 5 (left foot).\n"
    "FrameTime Walk 120\n"
    "Loop Walk 1\n"
    "Event Walk 2 footstep\n"
    "Event Walk 5 footstep\n"
    "# Attack: ready, wind-up, thrust, hold, recover, then back to Idle.\n"
    "# The wind-up is slow and the thrust fast; the thrust pose is held\n"
    "# as it is (no blending) before the follow-through.\n"
    "FrameTime Attack 150\n"
    "Duration Attack 1 200\n"
    "Duration Attack 2 80\n"
    "NoBlend Attack 3\n"
    "Duration Attack 5 250\n"
    "Event Attack 3 hit\n"
    "Once Attack\n"
    "Next Attack Idle\n";

static void write_knight(const char *out_dir)
{
    mesh m; /* about 30 KiB */
    char dir[4096];
    pose poses[MAX_FRAMES];
    build_knight(&m);
    unit u = {"knight", knight_joints, K_JOINTS, &m, 1};
    make_unit_dir(out_dir, "knight", dir, sizeof dir);
    for (int k = 0; k < 4; k++)
        knight_idle(k, &poses[k]);
    write_animation(dir, &u, "Idle", poses, 4);
    for (int k = 0; k < 6; k++)
        knight_walk(k, &poses[k]);
    write_animation(dir, &u, "Walk", poses, 6);
    for (int k = 0; k < 5; k++)
        knight_attack(k, &poses[k]);
    write_animation(dir, &u, "Attack", poses, 5);
    write_text(dir, "animation.cfg", knight_cfg);
}

/* ---- the wing ------------------------------------------------------------ */

enum { W_BODY, W_WING_R, W_WING_L, W_JOINTS };

/* The wings hinge along the body's sides (axis +Z). */
static const joint_def wing_joints[W_JOINTS] = {
    [W_BODY] = {-1, {0, 0, 0}},
    [W_WING_R] = {W_BODY, {0.15, 0, 0}},
    [W_WING_L] = {W_BODY, {-0.15, 0, 0}},
};

static void build_wing(mesh *m)
{
    static const box_def body = {W_BODY, 0, 0, -0.10, 0.10, 0.14, 0.34, 0.15, 0.36, 0};
    static const box_def head = {W_BODY, 0, 0.42, -0.04, 0.10, 0.06, 0.07, 0.05, 0.06, 0};
    /* joint  root_x  dir  span  chord root/tip  thickness root/tip  sweep  segments */
    static const wing_def right = {W_WING_R, 0.15, 1, 1.2, 0.48, 0.22, 0.04, 0.016, 0.10, 5};
    static const wing_def left = {W_WING_L, -0.15, -1, 1.2, 0.48, 0.22, 0.04, 0.016, 0.10, 5};
    memset(m, 0, sizeof *m);
    add_box(m, &body);
    add_box(m, &head);
    add_wing(m, &right);
    add_wing(m, &left);
}

/* Both wings raised by `up` degrees above level (negative: lowered). */
static void wing_pose(double up, pose *p)
{
    memset(p, 0, sizeof *p);
    set_rot(p, W_WING_R, 0, 0, up);
    set_rot(p, W_WING_L, 0, 0, -up);
}

static const char wing_cfg[] =
    "# wing: generated by tools/gen_demo (tools/gen_demo/gen_demo.c), do not edit.\n"
    "# A body with two thin wings hinged at its sides. The wings turn about the\n"
    "# hinge, but frame blending moves every vertex along a straight line.\n"
    "# Flap: up 60 degrees, level, down 60 degrees, level, looping. Blending\n"
    "# through the level frames keeps the tips nearer their circle than Beat;\n"
    "# 'Interpolation Flap smooth' makes the path a curve through the frames.\n"
    "FrameTime Flap 300\n"
    "# Beat: only up and down. Linear blending moves the tips along the chord,\n"
    "# so at mid-blend they reach only half the span: the wings shrink.\n"
    "FrameTime Beat 300\n";

static void write_wing(const char *out_dir)
{
    mesh m;
    char dir[4096];
    pose poses[4];
    build_wing(&m);
    unit u = {"wing", wing_joints, W_JOINTS, &m, 0};
    make_unit_dir(out_dir, "wing", dir, sizeof dir);
    wing_pose(60, &poses[0]);
    wing_pose(0, &poses[1]);
    wing_pose(-60, &poses[2]);
    wing_pose(0, &poses[3]);
    write_animation(dir, &u, "Flap", poses, 4);
    wing_pose(60, &poses[0]);
    wing_pose(-60, &poses[1]);
    write_animation(dir, &u, "Beat", poses, 2);
    write_text(dir, "animation.cfg", wing_cfg);
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: gen_demo OUT_DIR\n"
                        "Writes the demo units OUT_DIR/knight/ and OUT_DIR/wing/ "
                        "(OBJ frames and animation.cfg).\n");
        return 2;
    }
    write_knight(argv[1]);
    write_wing(argv[1]);
    return 0;
}
