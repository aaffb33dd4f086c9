/* An ensemble's checkpoint files (checkpoint.h). */
#define _POSIX_C_SOURCE 200809L /* mkdir */

#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ensemble_stats.h"

/* "CDYNREC1": a record file, version 1. */
static const char RECORD_MAGIC[8] = {'C', 'D', 'Y', 'N', 'R', 'E', 'C', '1'};

enum { PATH_MAX_LEN = 4096 };

static int path_of(char *out, const char *dir, uint64_t run, const char *ext)
{
    int n = snprintf(out, PATH_MAX_LEN, "%s/run_%06llu.%s", dir, (unsigned long long)run, ext);
    return n > 0 && n < PATH_MAX_LEN ? 0 : -1;
}

/* Writes the bytes under path.tmp, then renames it to path. */
static int write_whole(const char *path, const void *bytes, size_t size)
{
    char tmp[PATH_MAX_LEN + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    int bad = fwrite(bytes, 1, size, f) != size;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* The whole file in a buffer from malloc (NULL when absent or unreadable). */
static void *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *more = realloc(buf, 2 * cap);
        if (!more) {
            free(buf);
            buf = NULL;
        }
        buf = more;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

int checkpoint_open(const char *dir, const char *manifest)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "checkpoint: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char path[PATH_MAX_LEN];
    if (snprintf(path, sizeof path, "%s/manifest.txt", dir) >= (int)sizeof path)
        return -1;
    size_t size = 0;
    char *old = read_whole(path, &size);
    if (!old) {
        if (write_whole(path, manifest, strlen(manifest)) != 0) {
            fprintf(stderr, "checkpoint: cannot write %s\n", path);
            return -1;
        }
        return 0;
    }
    int same = size == strlen(manifest) && memcmp(old, manifest, size) == 0;
    if (!same)
        fprintf(stderr,
                "checkpoint: %s holds another ensemble; its manifest:\n%.*s"
                "this one's:\n%s(use another directory, or the same parameters)\n",
                dir, (int)size, old, manifest);
    free(old);
    return same ? 0 : -1;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

void checkpoint_put_words(unsigned char *out, const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put_u64(out + 8 * i, words[i]);
}

void checkpoint_get_words(const unsigned char *in, uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        words[i] = get_u64(in + 8 * i);
}

/* Layout, little-endian: magic, run, word count, the words, FNV-1a 64 of
 * everything before it. */
int checkpoint_save_record(const char *dir, uint64_t run, const uint64_t *words, size_t n)
{
    char path[PATH_MAX_LEN];
    size_t size = 32 + 8 * n;
    unsigned char *buf = malloc(size);
    if (!buf || path_of(path, dir, run, "rec") != 0) {
        free(buf);
        return -1;
    }
    memcpy(buf, RECORD_MAGIC, 8);
    put_u64(buf + 8, run);
    put_u64(buf + 16, n);
    checkpoint_put_words(buf + 24, words, n);
    put_u64(buf + size - 8, ensemble_hash(ENSEMBLE_HASH_START, buf, size - 8));
    int r = write_whole(path, buf, size);
    free(buf);
    return r;
}

int checkpoint_load_record(const char *dir, uint64_t run, uint64_t *words, size_t n)
{
    char path[PATH_MAX_LEN];
    size_t size = 0;
    if (path_of(path, dir, run, "rec") != 0)
        return -1;
    unsigned char *buf = read_whole(path, &size);
    if (!buf)
        return 0;
    int ok = size == 32 + 8 * n && memcmp(buf, RECORD_MAGIC, 8) == 0 &&
             get_u64(buf + 8) == run && get_u64(buf + 16) == n &&
             get_u64(buf + size - 8) == ensemble_hash(ENSEMBLE_HASH_START, buf, size - 8);
    if (ok)
        checkpoint_get_words(buf + 24, words, n);
    free(buf);
    if (!ok)
        fprintf(stderr, "checkpoint: %s is damaged or from another ensemble: the run is "
                        "computed again\n", path);
    return ok ? 1 : -1;
}

int checkpoint_save_state(const char *dir, uint64_t run, const void *bytes, size_t size)
{
    char path[PATH_MAX_LEN];
    return path_of(path, dir, run, "state") == 0 ? write_whole(path, bytes, size) : -1;
}

void *checkpoint_load_state(const char *dir, uint64_t run, size_t *size)
{
    char path[PATH_MAX_LEN];
    return path_of(path, dir, run, "state") == 0 ? read_whole(path, size) : NULL;
}

void checkpoint_drop_state(const char *dir, uint64_t run)
{
    char path[PATH_MAX_LEN];
    if (path_of(path, dir, run, "state") == 0)
        remove(path);
    if (path_of(path, dir, run, "state.tmp") == 0) /* left by a kill during a write */
        remove(path);
}
