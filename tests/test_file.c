/* The file layer (morphkit/file.h): loaders reading through caller
 * callbacks (an in-memory file system), the default implementation's
 * refusals (FIFO, folder, missing file), paths beyond MK_ERROR_FILE_MAX, the
 * atomic writer and folder creation. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

#define KNIGHT MK_TEST_SOURCE_DIR "/assets/demo/knight"
#define SIMPLE_MORPH MK_TEST_SOURCE_DIR "/tests/data/gltf/SimpleMorph/glTF"

/* ---- an in-memory file system behind the callbacks ------------------------ */

typedef struct mem_file {
    char path[600];
    char *data;
    size_t size;
    bool folder;
} mem_file;

typedef struct mem_fs {
    mem_file files[64];
    int count;
    int reads, releases, lists;
    const mk_allocator *last_allocator; /* as passed to the last read */
    bool copy; /* true: read copies through the allocator; false: pak-style pointers */
} mem_fs;

static void mem_add(mem_fs *fs, const char *path, const char *data, size_t size, bool folder)
{
    if (fs->count == 64) {
        fprintf(stderr, "mem_fs full\n");
        exit(1);
    }
    mem_file *f = &fs->files[fs->count++];
    snprintf(f->path, sizeof f->path, "%s", path);
    f->data = NULL;
    f->size = size;
    f->folder = folder;
    if (!folder) {
        f->data = malloc(size + 1);
        memcpy(f->data, data, size);
    }
}

/* Copies every regular file of a disk folder into the memory folder mdir. */
static void mem_add_disk_folder(mem_fs *fs, const char *mdir, const char *disk)
{
    mem_add(fs, mdir, NULL, 0, true);
    DIR *d = opendir(disk);
    CHECK(d != NULL);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char src[1024], dst[600];
        snprintf(src, sizeof src, "%s/%s", disk, de->d_name);
        snprintf(dst, sizeof dst, "%s/%s", mdir, de->d_name);
        size_t size;
        char *text = mk_fx_read(src, &size);
        CHECK(text != NULL);
        if (text)
            mem_add(fs, dst, text, size, false);
        free(text);
    }
    if (d)
        closedir(d);
}

static void mem_free(mem_fs *fs)
{
    for (int i = 0; i < fs->count; i++)
        free(fs->files[i].data);
}

static const mem_file *mem_find(const mem_fs *fs, const char *path)
{
    for (int i = 0; i < fs->count; i++)
        if (strcmp(fs->files[i].path, path) == 0)
            return &fs->files[i];
    return NULL;
}

static mk_status mem_read(void *user, const char *path, const mk_allocator *allocator,
                          size_t max_size, void **data, size_t *size, mk_error *err)
{
    mem_fs *fs = user;
    const mem_file *f = mem_find(fs, path);
    if (!f)
        return mk_error_set(err, MK_ERR_NOT_FOUND, path, 0, "not in the memory file system");
    if (f->folder)
        return mk_error_set(err, MK_ERR_IO, path, 0, "a folder");
    if (max_size && f->size > max_size)
        return mk_error_set(err, MK_ERR_LIMIT, path, 0, "too big");
    fs->reads++;
    fs->last_allocator = allocator;
    if (!fs->copy) {
        *data = f->data;
        *size = f->size;
        return MK_OK;
    }
    void *p = mk_alloc(allocator, f->size ? f->size : 1);
    if (!p)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    memcpy(p, f->data, f->size);
    *data = p;
    *size = f->size;
    return MK_OK;
}

static void mem_release(void *user, const mk_allocator *allocator, void *data, size_t size)
{
    mem_fs *fs = user;
    fs->releases++;
    mk_free(allocator, data, size ? size : 1);
}

static mk_status mem_list(void *user, const char *dir, mk_file_entry_fn entry, void *context,
                          mk_error *err)
{
    mem_fs *fs = user;
    const mem_file *d = mem_find(fs, dir);
    if (!d)
        return mk_error_set(err, MK_ERR_NOT_FOUND, dir, 0, "no such folder");
    if (!d->folder)
        return mk_error_set(err, MK_ERR_IO, dir, 0, "not a folder");
    fs->lists++;
    size_t n = strlen(dir);
    for (int i = 0; i < fs->count; i++) {
        const mem_file *f = &fs->files[i];
        const char *name = f->path + n + 1;
        if (strncmp(f->path, dir, n) != 0 || f->path[n] != '/' || strchr(name, '/'))
            continue;
        if (!entry(context, name, f->folder ? MK_FILE_FOLDER : MK_FILE_REGULAR))
            break;
    }
    return MK_OK;
}

static mk_file_callbacks mem_callbacks(mem_fs *fs)
{
    mk_file_callbacks cb = {0};
    cb.read = mem_read;
    cb.release = fs->copy ? mem_release : NULL;
    cb.list = mem_list;
    cb.user = fs;
    return cb;
}

/* ---- comparisons ---------------------------------------------------------- */

static void check_same_units(const mk_unit *a, const mk_unit *b)
{
    const mk_frame_set *x = a->frames, *y = b->frames;
    CHECK_EQ_INT(x->frame_count, y->frame_count);
    CHECK_EQ_INT(x->vertex_count, y->vertex_count);
    CHECK_EQ_INT(x->index_count, y->index_count);
    CHECK_EQ_INT(a->bytes_on_disk, b->bytes_on_disk);
    if (x->frame_count != y->frame_count || x->vertex_count != y->vertex_count ||
        x->index_count != y->index_count)
        return;
    size_t floats = (size_t)x->frame_count * x->vertex_count * 3;
    CHECK(memcmp(x->positions, y->positions, floats * sizeof(float)) == 0);
    CHECK((x->normals == NULL) == (y->normals == NULL));
    if (x->normals && y->normals)
        CHECK(memcmp(x->normals, y->normals, floats * sizeof(float)) == 0);
    CHECK(memcmp(x->indices, y->indices, x->index_count * sizeof(uint32_t)) == 0);
    CHECK_EQ_INT(a->clips->clip_count, b->clips->clip_count);
    for (uint32_t i = 0; i < a->clips->clip_count && i < b->clips->clip_count; i++) {
        const mk_clip *p = &a->clips->clips[i], *q = &b->clips->clips[i];
        CHECK(strcmp(p->name, q->name) == 0);
        CHECK_EQ_INT(p->frame_count, q->frame_count);
        CHECK_EQ_INT(p->length_us, q->length_us);
        CHECK_EQ_INT(p->once, q->once);
        CHECK_EQ_INT(p->next_clip, q->next_clip);
        CHECK_EQ_INT(p->event_count, q->event_count);
    }
}

/* What the knight's animation.cfg says (hand-read from the file): Attack is
 * Once then Idle, its durations 200 80 150 150 250 ms; Walk 6 x 120 ms. */
static void check_knight_config(const mk_unit *u)
{
    uint32_t attack = mk_clip_set_find(u->clips, "Attack");
    uint32_t idle = mk_clip_set_find(u->clips, "Idle");
    uint32_t walk = mk_clip_set_find(u->clips, "Walk");
    CHECK(attack != MK_NONE && idle != MK_NONE && walk != MK_NONE);
    if (attack == MK_NONE || idle == MK_NONE || walk == MK_NONE)
        return;
    const mk_clip *a = &u->clips->clips[attack];
    CHECK(a->once);
    CHECK_EQ_INT(a->next_clip, idle);
    CHECK_EQ_INT(a->length_us, (200 + 80 + 150 + 150 + 250) * 1000);
    CHECK_EQ_INT(u->clips->clips[walk].cycle_us, 6 * 120 * 1000);
    CHECK_EQ_INT(u->clips->clips[walk].event_count, 2);
}

/* ---- loading through callbacks -------------------------------------------- */

static void test_unit_from_memory(void)
{
    mem_fs fs = {0};
    fs.copy = true;
    mem_add(&fs, "/mem", NULL, 0, true);
    mem_add(&fs, "/mem/units", NULL, 0, true);
    mem_add(&fs, "/mem/units/notes", NULL, 0, true); /* a folder without frames */
    mem_add_disk_folder(&fs, "/mem/units/knight", KNIGHT);
    mk_file_callbacks cb = mem_callbacks(&fs);
    mk_unit_options opt = {0};
    opt.files = &cb;

    mk_unit *disk = NULL, *mem = NULL;
    mk_error err;
    CHECK_EQ_INT(mk_unit_load(KNIGHT, NULL, NULL, &disk, NULL, &err), MK_OK);
    mk_status st = mk_unit_load("/mem/units/knight", &opt, NULL, &mem, NULL, &err);
    if (st != MK_OK)
        fprintf(stderr, "memory load: %s: %s\n", err.file, err.message);
    CHECK_EQ_INT(st, MK_OK);
    /* 15 frames and animation.cfg, each read once and given back */
    CHECK_EQ_INT(fs.reads, 16);
    CHECK_EQ_INT(fs.releases, fs.reads);
    if (disk && mem) {
        check_same_units(disk, mem);
        check_knight_config(mem);
        CHECK(strcmp(mem->name, "knight") == 0);
    }
    mk_unit_destroy(disk);
    mk_unit_destroy(mem);

    /* discovery and library listing see the same folders */
    CHECK(mk_is_unit_folder("/mem/units/knight", &opt));
    CHECK(!mk_is_unit_folder("/mem/units/notes", &opt));
    CHECK(!mk_is_unit_folder("/mem/units/knight/Idle_1.obj", &opt));
    CHECK(!mk_is_unit_folder("/mem/units/knight", NULL)); /* not on disk */
    char **paths = NULL;
    uint32_t count = 0;
    CHECK_EQ_INT(mk_unit_list("/mem/units", &opt, NULL, &paths, &count, &err), MK_OK);
    CHECK_EQ_INT(count, 1);
    if (count == 1)
        CHECK(strcmp(paths[0], "/mem/units/knight") == 0);
    mk_unit_list_free(NULL, paths, count);
    CHECK_EQ_INT(mk_unit_list("/mem/none", &opt, NULL, &paths, &count, &err), MK_ERR_NOT_FOUND);

    /* a frame missing from the memory file system is reported by name */
    mem_fs small = {0};
    small.copy = true;
    mem_add(&small, "/u", NULL, 0, true);
    mem_add(&small, "/u/Walk_1.obj", "v 0 0 0\n", 8, false);
    mem_add(&small, "/u/animation.cfg", "FrameTime Walk 50\n", 18, false);
    mk_file_callbacks cb2 = mem_callbacks(&small);
    mk_unit_files *files = NULL;
    mk_unit_options opt2 = {0};
    opt2.files = &cb2;
    CHECK_EQ_INT(mk_unit_discover("/u", &opt2, NULL, &files, &err), MK_OK);
    if (files) {
        CHECK(files->has_config);
        small.files[2].path[1] = 'x'; /* animation.cfg disappears after discovery */
        mk_clip_set *clips = NULL;
        mk_anim_config_options co = {0};
        co.files = &cb2;
        CHECK_EQ_INT(mk_anim_config_load(files, &co, NULL, &clips, NULL, &err), MK_ERR_NOT_FOUND);
        CHECK(strcmp(err.file, "/u/animation.cfg") == 0);
        CHECK(clips == NULL);
        mk_unit_files_destroy(files);
    }
    CHECK_EQ_INT(small.releases, small.reads);
    mem_free(&small);
    mem_free(&fs);
}

static void check_same_gltf(const mk_gltf *a, const mk_gltf *b)
{
    CHECK_EQ_INT(a->buffer_count, b->buffer_count);
    for (uint32_t i = 0; i < a->buffer_count && i < b->buffer_count; i++) {
        CHECK_EQ_INT(a->buffers[i].byte_length, b->buffers[i].byte_length);
        if (a->buffers[i].byte_length == b->buffers[i].byte_length)
            CHECK(memcmp(a->buffers[i].data, b->buffers[i].data, a->buffers[i].byte_length) == 0);
    }
    CHECK_EQ_INT(a->accessor_count, b->accessor_count);
    CHECK_EQ_INT(a->mesh_count, b->mesh_count);
    CHECK_EQ_INT(a->animation_count, b->animation_count);
    if (a->mesh_count && b->mesh_count)
        CHECK_EQ_INT(a->meshes[0].target_count, b->meshes[0].target_count);
}

static void test_gltf_from_memory(void)
{
    mk_gltf *disk = NULL;
    mk_error err;
    CHECK_EQ_INT(mk_gltf_load(SIMPLE_MORPH "/SimpleMorph.gltf", NULL, NULL, &disk, &err), MK_OK);
    CHECK(disk && disk->buffer_count == 2); /* two external .bin files */
    for (int copy = 0; copy < 2; copy++) {
        mem_fs fs = {0};
        fs.copy = copy;
        mem_add_disk_folder(&fs, "/pak/morph", SIMPLE_MORPH);
        mk_file_callbacks cb = mem_callbacks(&fs);
        mk_gltf_options opt = {0};
        opt.files = &cb;
        mk_gltf *mem = NULL;
        mk_status st = mk_gltf_load("/pak/morph/SimpleMorph.gltf", &opt, NULL, &mem, &err);
        if (st != MK_OK)
            fprintf(stderr, "memory load: %s: %s\n", err.file, err.message);
        CHECK_EQ_INT(st, MK_OK);
        CHECK_EQ_INT(fs.reads, 3);
        if (copy) /* the JSON text is given back at once, the buffers with the model */
            CHECK_EQ_INT(fs.releases, 1);
        if (disk && mem) {
            check_same_gltf(disk, mem);
            if (!copy) { /* pak-style: buffers are used in place, not copied */
                const void *geo = mem_find(&fs, "/pak/morph/simpleMorphGeometry.bin")->data;
                const void *anim = mem_find(&fs, "/pak/morph/simpleMorphAnimation.bin")->data;
                const void *b0 = mem->buffers[0].data;
                CHECK(b0 == geo || b0 == anim);
            }
        }
        mk_gltf_destroy(mem);
        if (copy)
            CHECK_EQ_INT(fs.releases, 3);
        /* a missing .bin in the memory file system: NOT_FOUND naming the buffer */
        fs.files[fs.count - 1].path[1] = 'x';
        fs.files[fs.count - 2].path[1] = 'x';
        fs.files[fs.count - 3].path[1] = 'x';
        const char *doc = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,"
                          "\"uri\":\"gone.bin\"}]}";
        mem_add(&fs, "/pak/morph/SimpleMorph.gltf", doc, strlen(doc), false);
        CHECK_EQ_INT(mk_gltf_load("/pak/morph/SimpleMorph.gltf", &opt, NULL, &mem, &err),
                     MK_ERR_NOT_FOUND);
        CHECK_CONTAINS(err.message, "buffers[0].uri");
        CHECK_CONTAINS(err.message, "/pak/morph/gone.bin");
        CHECK(strcmp(err.file, "/pak/morph/SimpleMorph.gltf") == 0);
        CHECK(mem == NULL);
        if (copy)
            CHECK_EQ_INT(fs.releases, fs.reads);
        mem_free(&fs);
    }
    mk_gltf_destroy(disk);
}

/* ---- the allocator parameter ---------------------------------------------- */

typedef struct counting {
    long calls, live;
    size_t bytes;
} counting;

static void *count_alloc(void *user, size_t size)
{
    counting *c = user;
    c->calls++;
    c->live++;
    c->bytes += size;
    return malloc(size);
}

static void count_free(void *user, void *p, size_t size)
{
    counting *c = user;
    if (!p)
        return;
    c->live--;
    c->bytes -= size;
    free(p);
}

/* Every loader makes everything through the allocator it is given (the
 * file blocks included), and gives all of it back. */
static void test_allocator_parameter(void)
{
    counting c = {0, 0, 0};
    mk_allocator a = {count_alloc, NULL, count_free, &c};
    mk_error err;
    mk_unit *u = NULL;
    CHECK_EQ_INT(mk_unit_load(KNIGHT, NULL, &a, &u, NULL, &err), MK_OK);
    CHECK(c.calls > 16 && c.live > 0);
    CHECK(u && u->allocator.user == &c);
    mk_unit_destroy(u);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bytes, 0);

    long before = c.calls;
    mk_gltf *g = NULL;
    CHECK_EQ_INT(mk_gltf_load(SIMPLE_MORPH "/SimpleMorph.gltf", NULL, &a, &g, &err), MK_OK);
    CHECK(c.calls > before && c.live > 0);
    mk_gltf_destroy(g);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bytes, 0);

    mk_obj *o = NULL;
    CHECK_EQ_INT(mk_obj_load(KNIGHT "/Walk_1.obj", NULL, &a, &o, &err), MK_OK);
    CHECK(o && o->allocator.user == &c);
    mk_obj_destroy(o);
    CHECK_EQ_INT(c.live, 0);

    /* callbacks receive the loader's allocator for their blocks */
    mem_fs fs = {0};
    fs.copy = true;
    mem_add(&fs, "/m", NULL, 0, true);
    mem_add(&fs, "/m/a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", 32, false);
    mk_file_callbacks cb = mem_callbacks(&fs);
    mk_obj_options oo = {0};
    oo.files = &cb;
    CHECK_EQ_INT(mk_obj_load("/m/a.obj", &oo, &a, &o, &err), MK_OK);
    CHECK(fs.last_allocator == &a);
    CHECK(o && o->triangle_count == 1);
    mk_obj_destroy(o);
    CHECK_EQ_INT(fs.releases, 1);
    CHECK_EQ_INT(c.live, 0);
    mem_free(&fs);
}

/* ---- the default implementation's refusals --------------------------------- */

static void test_fifo_and_folder_refused_at_once(void)
{
    const char *dir = mk_fx_dir("file_special");
    char fifo[1024];
    snprintf(fifo, sizeof fifo, "%s/pipe.gltf", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    alarm(5); /* a regression that blocks on the FIFO fails instead of hanging */
    mk_error err;
    mk_gltf *g = NULL;
    CHECK_EQ_INT(mk_gltf_load(fifo, NULL, NULL, &g, &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "not a regular file");
    CHECK(strcmp(err.file, fifo) == 0);
    mk_obj *o = NULL;
    CHECK_EQ_INT(mk_obj_load(fifo, NULL, NULL, &o, &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "not a regular file");
    void *data;
    size_t size;
    CHECK_EQ_INT(mk_file_read(NULL, fifo, NULL, 0, &data, &size, &err), MK_ERR_IO);
    /* A unit whose animation.cfg is a FIFO: it is not a regular file, so the
     * unit has no config (defaults) and nothing blocks. */
    mk_fx_write(dir, "Walk_1.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    char cfg[1024];
    snprintf(cfg, sizeof cfg, "%s/animation.cfg", dir);
    CHECK(mkfifo(cfg, 0600) == 0);
    mk_unit *u = NULL;
    CHECK_EQ_INT(mk_unit_load(dir, NULL, NULL, &u, NULL, &err), MK_OK);
    if (u)
        CHECK(!u->files->has_config);
    mk_unit_destroy(u);
    alarm(0);

    /* A folder given as a file: a clear error, not a size of 2^63 - 1. */
    CHECK_EQ_INT(mk_gltf_load(dir, NULL, NULL, &g, &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "is a directory");
    CHECK_EQ_INT(mk_obj_load(dir, NULL, NULL, &o, &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "is a directory");
    /* A file given as a folder. */
    mk_unit_files *uf = NULL;
    CHECK_EQ_INT(mk_unit_discover(mk_fx_path(dir, "Walk_1.obj"), NULL, NULL, &uf, &err),
                 MK_ERR_IO);
}

static void test_missing_is_not_found_everywhere(void)
{
    const char *dir = mk_fx_dir("file_missing");
    mk_error err;
    mk_obj *o = NULL;
    mk_gltf *g = NULL;
    CHECK_EQ_INT(mk_obj_load(mk_fx_path(dir, "none.obj"), NULL, NULL, &o, &err),
                 MK_ERR_NOT_FOUND);
    CHECK_EQ_INT(mk_gltf_load(mk_fx_path(dir, "none.gltf"), NULL, NULL, &g, &err),
                 MK_ERR_NOT_FOUND);
    CHECK_EQ_INT(mk_gltf_load(mk_fx_path(dir, "none.glb"), NULL, NULL, &g, &err),
                 MK_ERR_NOT_FOUND);
    CHECK(strcmp(err.file, mk_fx_path(dir, "none.glb")) == 0);
    CHECK_CONTAINS(err.message, strerror(ENOENT));
    mk_unit_animation anim = {(char *)"Walk", 1, 1, 0};
    char *frame = (char *)"Walk_1.obj";
    mk_unit_files files = {0};
    files.dir = (char *)dir;
    files.animation_count = 1;
    files.animations = &anim;
    files.frame_count = 1;
    files.frame_files = &frame;
    files.has_config = true;
    mk_clip_set *clips = NULL;
    CHECK_EQ_INT(mk_anim_config_load(&files, NULL, NULL, &clips, NULL, &err), MK_ERR_NOT_FOUND);
    CHECK(strcmp(err.file, mk_fx_path(dir, "animation.cfg")) == 0);
    mk_unit_files *uf = NULL;
    CHECK_EQ_INT(mk_unit_discover(mk_fx_path(dir, "none"), NULL, NULL, &uf, &err),
                 MK_ERR_NOT_FOUND);
    mk_unit *u = NULL;
    CHECK_EQ_INT(mk_unit_load(mk_fx_path(dir, "none"), NULL, NULL, &u, NULL, &err),
                 MK_ERR_NOT_FOUND);
    char **paths = NULL;
    uint32_t count = 0;
    CHECK_EQ_INT(mk_unit_list(mk_fx_path(dir, "none"), NULL, NULL, &paths, &count, &err),
                 MK_ERR_NOT_FOUND);
    /* misuse */
    CHECK_EQ_INT(mk_obj_load(NULL, NULL, NULL, &o, &err), MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(mk_gltf_load(NULL, NULL, NULL, &g, &err), MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(mk_unit_load(NULL, NULL, NULL, &u, NULL, &err), MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(mk_file_list(NULL, dir, NULL, NULL, &err), MK_ERR_INVALID_ARGUMENT);
}

/* A unit under a path of more than MK_ERROR_FILE_MAX bytes loads in full,
 * animation.cfg included; an error there is cut in mk_error.file only. */
static void test_long_unit_path(void)
{
    const char *base = mk_fx_dir("file_long");
    char path[2048];
    snprintf(path, sizeof path, "%s", base);
    char seg[101];
    memset(seg, 'd', 100);
    seg[100] = '\0';
    while (strlen(path) <= 700) {
        strcat(path, "/");
        strcat(path, seg);
        CHECK(mkdir(path, 0777) == 0);
    }
    CHECK(strlen(path) > MK_ERROR_FILE_MAX);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cp '%s'/*.obj '%s'/animation.cfg '%s'/", KNIGHT, KNIGHT, path);
    CHECK(system(cmd) == 0);
    mk_unit *u = NULL, *ref = NULL;
    mk_error err;
    mk_status st = mk_unit_load(path, NULL, NULL, &u, NULL, &err);
    if (st != MK_OK)
        fprintf(stderr, "long path: %s\n", err.message);
    CHECK_EQ_INT(st, MK_OK);
    CHECK_EQ_INT(mk_unit_load(KNIGHT, NULL, NULL, &ref, NULL, &err), MK_OK);
    if (u && ref) {
        CHECK(u->files->has_config);
        check_knight_config(u);
        check_same_units(ref, u);
    }
    mk_unit_destroy(u);
    mk_unit_destroy(ref);

    /* an error under that path: reported, the path cut to fit */
    snprintf(cmd, sizeof cmd, "echo 'Bogus Walk' > '%s'/animation.cfg", path);
    CHECK(system(cmd) == 0);
    CHECK_EQ_INT(mk_unit_load(path, NULL, NULL, &u, NULL, &err), MK_ERR_PARSE);
    CHECK_EQ_INT(strlen(err.file), MK_ERROR_FILE_MAX - 1);
    CHECK(strncmp(err.file, path, MK_ERROR_FILE_MAX - 1) == 0);
    char missing[2100];
    snprintf(missing, sizeof missing, "%s/none.obj", path);
    mk_obj *o = NULL;
    CHECK_EQ_INT(mk_obj_load(missing, NULL, NULL, &o, &err), MK_ERR_NOT_FOUND);
    CHECK_EQ_INT(strlen(err.file), MK_ERROR_FILE_MAX - 1);
}

/* ---- listing --------------------------------------------------------------- */

typedef struct seen {
    char names[8][32];
    mk_file_kind kinds[8];
    int count;
} seen;

static bool remember(void *context, const char *name, mk_file_kind kind)
{
    seen *s = context;
    if (s->count < 8) {
        snprintf(s->names[s->count], sizeof s->names[0], "%s", name);
        s->kinds[s->count++] = kind;
    }
    return true;
}

static int kind_of(const seen *s, const char *name)
{
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->names[i], name) == 0)
            return (int)s->kinds[i];
    return -1;
}

static void test_list_kinds(void)
{
    const char *dir = mk_fx_dir("file_list");
    mk_fx_write(dir, "a.obj", "");
    char p[1024];
    snprintf(p, sizeof p, "%s/sub", dir);
    CHECK(mkdir(p, 0777) == 0);
    snprintf(p, sizeof p, "%s/link", dir);
    CHECK(symlink("sub", p) == 0);
    snprintf(p, sizeof p, "%s/dangling", dir);
    CHECK(symlink("nowhere", p) == 0);
    snprintf(p, sizeof p, "%s/fifo", dir);
    CHECK(mkfifo(p, 0600) == 0);
    seen s = {0};
    mk_error err;
    CHECK_EQ_INT(mk_file_list(NULL, dir, remember, &s, &err), MK_OK);
    CHECK_EQ_INT(s.count, 5); /* no "." or ".." */
    CHECK_EQ_INT(kind_of(&s, "a.obj"), MK_FILE_REGULAR);
    CHECK_EQ_INT(kind_of(&s, "sub"), MK_FILE_FOLDER);
    CHECK_EQ_INT(kind_of(&s, "link"), MK_FILE_FOLDER);
    CHECK_EQ_INT(kind_of(&s, "dangling"), MK_FILE_OTHER);
    CHECK_EQ_INT(kind_of(&s, "fifo"), MK_FILE_OTHER);
    CHECK_EQ_INT(mk_file_list(NULL, mk_fx_path(dir, "a.obj"), remember, &s, &err), MK_ERR_IO);
    CHECK_EQ_INT(mk_file_list(NULL, mk_fx_path(dir, "none"), remember, &s, &err),
                 MK_ERR_NOT_FOUND);
}

/* ---- writing --------------------------------------------------------------- */

/* Names in dir other than "." and ".." (to see that no temporary is left). */
static int entries_in(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static bool file_is(const char *path, const char *text)
{
    size_t size;
    char *got = mk_fx_read(path, &size);
    bool same = got && size == strlen(text) && memcmp(got, text, size) == 0;
    free(got);
    return same;
}

/* Wraps the default writer and fails on demand, as a full disk would. */
typedef struct flaky {
    bool fail;
    int calls;
} flaky;

static mk_status flaky_write(void *user, const char *path, const void *data, size_t size,
                             mk_error *err)
{
    flaky *f = user;
    f->calls++;
    if (f->fail)
        return mk_error_set(err, MK_ERR_IO, path, 0, "cannot write: no space left (simulated)");
    return mk_file_write(NULL, path, data, size, err);
}

static void test_atomic_write(void)
{
    const char *dir = mk_fx_dir("file_write");
    char path[1024];
    snprintf(path, sizeof path, "%s/out.glb", dir);
    mk_error err;
    CHECK_EQ_INT(mk_file_write(NULL, path, "first", 5, &err), MK_OK);
    CHECK(file_is(path, "first"));
    CHECK(chmod(path, 0640) == 0);
    CHECK_EQ_INT(mk_file_write(NULL, path, "second!", 7, &err), MK_OK);
    CHECK(file_is(path, "second!"));
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640); /* the mode is kept */
    CHECK_EQ_INT(entries_in(dir), 1);
    CHECK_EQ_INT(mk_file_write(NULL, path, NULL, 0, &err), MK_OK);
    CHECK(file_is(path, ""));
    CHECK_EQ_INT(mk_file_write(NULL, path, "old", 3, &err), MK_OK);

    /* through callbacks that fail on demand: the old file stays */
    flaky f = {true, 0};
    mk_file_callbacks cb = {0};
    cb.write = flaky_write;
    cb.user = &f;
    CHECK_EQ_INT(mk_file_write(&cb, path, "new", 3, &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "simulated");
    CHECK(file_is(path, "old"));
    f.fail = false;
    CHECK_EQ_INT(mk_file_write(&cb, path, "new", 3, &err), MK_OK);
    CHECK(file_is(path, "new"));
    CHECK_EQ_INT(f.calls, 2);

    /* the default writer failing half-way (the file size limit makes write()
     * fail with EFBIG after 16 bytes): the old file stays, no temporary */
    struct rlimit old_limit, small;
    CHECK(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    small = old_limit;
    small.rlim_cur = 16;
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    char big[100];
    memset(big, 'x', sizeof big);
    mk_status s = mk_file_write(NULL, path, big, sizeof big, &err);
    CHECK(setrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    signal(SIGXFSZ, old_handler);
    CHECK_EQ_INT(s, MK_ERR_IO);
    CHECK_CONTAINS(err.message, "cannot write");
    CHECK(strcmp(err.file, path) == 0);
    CHECK(file_is(path, "new"));
    CHECK_EQ_INT(entries_in(dir), 1);

    /* a folder at the path: the rename fails, nothing is left behind */
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/taken", dir);
    CHECK(mkdir(sub, 0777) == 0);
    mk_fx_write(sub, "keep", "k");
    CHECK_EQ_INT(mk_file_write(NULL, sub, "x", 1, &err), MK_ERR_IO);
    CHECK_EQ_INT(entries_in(dir), 2);
    /* a missing folder */
    CHECK_EQ_INT(mk_file_write(NULL, mk_fx_path(dir, "none/x.glb"), "x", 1, &err),
                 MK_ERR_NOT_FOUND);
}

/* Tries a write into read-only folder ro as a user without the rights to
 * ignore that (root drops to nobody in a child). Returns the status, or -1
 * when that could not be arranged. */
static int write_without_rights(const char *ro, const char *path, char *message, size_t cap)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(100);
        mk_error err;
        mk_status s = mk_file_write(NULL, path, "data", 4, &err);
        if (write(fds[1], err.message, strlen(err.message) + 1) < 0)
            _exit(101);
        _exit((int)s);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], message, cap - 1);
    message[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    (void)ro;
    if (!WIFEXITED(status) || WEXITSTATUS(status) >= 100)
        return -1;
    return WEXITSTATUS(status);
}

static void test_write_read_only_folder(void)
{
    const char *dir = mk_fx_dir("file_readonly");
    char ro[1024], path[1100];
    snprintf(ro, sizeof ro, "%s/ro", dir);
    CHECK(mkdir(ro, 0555) == 0 && chmod(ro, 0555) == 0);
    snprintf(path, sizeof path, "%s/out.glb", ro);
    char message[MK_ERROR_MESSAGE_MAX];
    int s = write_without_rights(ro, path, message, sizeof message);
    if (s < 0) {
        printf("(read-only folder: cannot drop privileges here, skipped)\n");
    } else {
        CHECK_EQ_INT(s, MK_ERR_IO);
        CHECK_CONTAINS(message, "cannot create a temporary file beside it");
        CHECK_CONTAINS(message, strerror(EACCES));
        CHECK_EQ_INT(entries_in(ro), 0);
    }
    chmod(ro, 0755);
}

static void test_make_folder(void)
{
    const char *dir = mk_fx_dir("file_mkdir");
    char p[1024];
    snprintf(p, sizeof p, "%s/out", dir);
    mk_error err;
    CHECK_EQ_INT(mk_file_make_folder(NULL, p, &err), MK_OK);
    struct stat st;
    CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_EQ_INT(mk_file_make_folder(NULL, p, &err), MK_OK); /* already there: fine */
    mk_fx_write(dir, "file", "x");
    CHECK_EQ_INT(mk_file_make_folder(NULL, mk_fx_path(dir, "file"), &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "something else is already there");
    CHECK_EQ_INT(mk_file_make_folder(NULL, mk_fx_path(dir, "a/b"), &err), MK_ERR_NOT_FOUND);
}

MK_TEST_MAIN(MK_TEST(test_unit_from_memory), MK_TEST(test_gltf_from_memory),
             MK_TEST(test_allocator_parameter),
             MK_TEST(test_fifo_and_folder_refused_at_once),
             MK_TEST(test_missing_is_not_found_everywhere), MK_TEST(test_long_unit_path),
             MK_TEST(test_list_kinds), MK_TEST(test_atomic_write),
             MK_TEST(test_write_read_only_folder), MK_TEST(test_make_folder))
