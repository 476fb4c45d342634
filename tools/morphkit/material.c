/* The diffuse colour of a unit for preview and view: the material its first
 * frame uses (`usemtl`, else the first one) from the `.mtl` file that frame
 * names (`mtllib`), its `Kd` and dissolve `d`. One colour per unit: the GL
 * layer draws a unit with one colour; textures (`map_Kd`) are not drawn. */
#include <string.h>

#include "cli.h"

/* The first word after `key` at the start of a line in text[0..size), copied
 * to out (the rest of the line, trimmed: names may hold spaces). */
static bool find_word(const char *text, size_t size, const char *key, char *out, size_t out_size)
{
    size_t k = strlen(key);
    for (size_t i = 0; i < size;) {
        size_t end = i;
        while (end < size && text[end] != '\n')
            end++;
        const char *line = text + i;
        while (line < text + end && (*line == ' ' || *line == '\t'))
            line++;
        if ((size_t)(text + end - line) > k && strncmp(line, key, k) == 0 &&
            (line[k] == ' ' || line[k] == '\t')) {
            const char *v = line + k;
            while (v < text + end && (*v == ' ' || *v == '\t'))
                v++;
            size_t n = (size_t)(text + end - v);
            while (n > 0 && (v[n - 1] == '\r' || v[n - 1] == ' ' || v[n - 1] == '\t'))
                n--;
            if (n + 1 > out_size)
                n = out_size - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return true;
        }
        i = end + 1;
    }
    return false;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Kd (and d) of material `use` (or of the first material when use is "") in
 * the .mtl text. */
static bool parse_mtl(const char *text, size_t size, const char *use, float rgba[4])
{
    bool active = false, seen_any = false, found = false;
    for (size_t i = 0; i < size;) {
        size_t end = i;
        while (end < size && text[end] != '\n')
            end++;
        char line[512];
        size_t n = end - i < sizeof line - 1 ? end - i : sizeof line - 1;
        memcpy(line, text + i, n);
        line[n] = '\0';
        char key[32], rest[480] = "";
        if (sscanf(line, " %31s %479[^\r\n]", key, rest) >= 1) {
            if (strcmp(key, "newmtl") == 0) {
                if (found)
                    break; /* the wanted block is over */
                active = use[0] ? strcmp(rest, use) == 0 : !seen_any;
                seen_any = true;
            } else if (active && strcmp(key, "Kd") == 0) {
                found = sscanf(rest, "%f %f %f", &rgba[0], &rgba[1], &rgba[2]) == 3;
                rgba[3] = 1.0f;
            } else if (active && found && strcmp(key, "d") == 0) {
                rgba[3] = strtof(rest, NULL);
            }
        }
        i = end + 1;
    }
    return found;
}

bool mk_cli_unit_diffuse(const mk_unit *u, float rgba[4])
{
    char *frame = join(u->files->dir, u->files->frame_files[0]);
    void *data = NULL, *mtl = NULL;
    size_t size = 0, mtl_size = 0;
    mk_error err;
    char lib[512], use[256] = "";
    bool found = false;
    if (frame && mk_file_read(NULL, frame, NULL, 0, &data, &size, &err) == MK_OK &&
        find_word(data, size, "mtllib", lib, sizeof lib)) {
        find_word(data, size, "usemtl", use, sizeof use);
        char *path = join(u->files->dir, lib);
        if (path && mk_file_read(NULL, path, NULL, 1 << 20, &mtl, &mtl_size, &err) == MK_OK) {
            found = parse_mtl(mtl, mtl_size, use, rgba);
            mk_file_release(NULL, NULL, mtl, mtl_size);
        }
        free(path);
    }
    if (data)
        mk_file_release(NULL, NULL, data, size);
    free(frame);
    return found;
}
