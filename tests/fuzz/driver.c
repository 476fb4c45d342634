/* Stand-alone driver for the fuzz harnesses (see fuzz.h).
 * usage: fuzz_X [--iterations N] SEED_FILE|CORPUS_DIR...
 * A file is a seed: run as it is, every prefix (when small) and N
 * deterministic mutations. A folder is a kept corpus (corpus/NAME): each
 * file in it runs once, as it is (the corpus is already minimized and
 * can be large, so no mutations). */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static uint32_t next_random(uint32_t *s)
{
    /* xorshift32: fixed seed, so a failure reproduces exactly */
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return buf;
}

/* One mutation of seed into out (capacity 2 * size + 16); returns its size. */
static size_t mutate(const uint8_t *seed, size_t size, uint8_t *out, uint32_t *rng)
{
    memcpy(out, seed, size);
    size_t n = size;
    int edits = 1 + (int)(next_random(rng) % 4);
    for (int e = 0; e < edits && n > 0; e++) {
        size_t at = next_random(rng) % n;
        switch (next_random(rng) % 6) {
        case 0: /* flip a bit */
            out[at] ^= (uint8_t)(1u << (next_random(rng) % 8));
            break;
        case 1: /* an interesting byte */ {
            static const uint8_t bytes[] = {0, 0xff, 0x7f, 0x80, '-', '/', '9', '\n', '"', 'e'};
            out[at] = bytes[next_random(rng) % sizeof bytes];
            break;
        }
        case 2: /* truncate */
            n = at;
            break;
        case 3: /* delete a run */ {
            size_t len = 1 + next_random(rng) % 16;
            if (at + len > n)
                len = n - at;
            memmove(out + at, out + at + len, n - at - len);
            n -= len;
            break;
        }
        case 4: /* duplicate a run (bounded by the capacity) */ {
            size_t len = 1 + next_random(rng) % 16;
            if (at + len > n)
                len = n - at;
            if (n + len <= 2 * size + 16) {
                memmove(out + at + len, out + at, n - at);
                n += len;
            }
            break;
        }
        default: /* copy a run from elsewhere in the seed */ {
            size_t from = next_random(rng) % size, len = 1 + next_random(rng) % 32;
            if (from + len > size)
                len = size - from;
            if (at + len > n)
                len = n - at;
            memcpy(out + at, seed + from, len);
            break;
        }
        }
    }
    return n;
}

static long run_corpus(const char *path, DIR *dir)
{
    long runs = 0;
    const struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2, size;
        char *file = malloc(n);
        if (!file)
            break;
        snprintf(file, n, "%s/%s", path, e->d_name);
        uint8_t *data = read_all(file, &size);
        if (data) {
            LLVMFuzzerTestOneInput(data, size);
            runs++;
        }
        free(data);
        free(file);
    }
    return runs;
}

int main(int argc, char **argv)
{
    long iterations = 2000;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--iterations") == 0) {
        iterations = strtol(argv[2], NULL, 10);
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [--iterations N] SEED_FILE...\n", argv[0]);
        return 2;
    }
    long runs = 0;
    for (int i = first; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (dir) {
            runs += run_corpus(argv[i], dir);
            closedir(dir);
            continue;
        }
        size_t size;
        uint8_t *seed = read_all(argv[i], &size);
        if (!seed) {
            fprintf(stderr, "cannot read seed %s\n", argv[i]);
            return 1;
        }
        LLVMFuzzerTestOneInput(seed, size);
        /* every prefix of a small seed, then random mutations */
        for (size_t k = 0; size <= 4096 && k < size; k++)
            LLVMFuzzerTestOneInput(seed, k), runs++;
        uint8_t *buf = malloc(2 * size + 16);
        uint32_t rng = 0x9e3779b9u ^ (uint32_t)i;
        for (long it = 0; buf && size > 0 && it < iterations; it++, runs++) {
            size_t n = mutate(seed, size, buf, &rng);
            LLVMFuzzerTestOneInput(buf, n);
        }
        free(buf);
        free(seed);
    }
    printf("%ld inputs, no crash\n", runs);
    return 0;
}
