/* fuzz_main.c — a main() for the fuzz targets outside libFuzzer: runs each
 * file named on the command line (a directory: each regular file in it,
 * in name order) through LLVMFuzzerTestOneInput once.
 *
 * The ordinary build (gcc, any build type, with or without sanitizers)
 * links each target with this file and runs it on its seed corpus as a
 * test, so the targets keep compiling against the API and every corpus
 * input keeps passing their checks.  A failing check aborts, which fails
 * the test; the message names the file being run. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

enum { MAX_INPUT = 1 << 20 }; /* libFuzzer's default -max_len is far below */

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "fuzz: cannot open %s\n", path);
        return 1;
    }
    uint8_t *buf = malloc(MAX_INPUT);
    if (buf == NULL) {
        fclose(f);
        fprintf(stderr, "fuzz: out of memory\n");
        return 1;
    }
    size_t len = fread(buf, 1, MAX_INPUT, f);
    int too_long = !feof(f);
    fclose(f);
    if (too_long) {
        free(buf);
        fprintf(stderr, "fuzz: %s is larger than %d bytes\n", path, MAX_INPUT);
        return 1;
    }
    fprintf(stderr, "fuzz: running %s (%zu bytes)\n", path, len);
    /* An exact-size copy, so ASan sees a read past the input's end. */
    uint8_t *input = malloc(len ? len : 1);
    if (input == NULL) {
        free(buf);
        return 1;
    }
    memcpy(input, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(input, len);
    free(input);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "fuzz: cannot open directory %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **p = realloc(names, cap * sizeof *p);
            if (p == NULL) break;
            names = p;
        }
        names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (names[n] == NULL) break;
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        if (stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
            bad |= run_file(names[i]);
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "fuzz: no such file or directory: %s\n", argv[i]);
            bad = 1;
        } else if (S_ISDIR(sb.st_mode)) {
            bad |= run_dir(argv[i], &count);
        } else {
            bad |= run_file(argv[i]);
            count++;
        }
    }
    if (count == 0) {
        fprintf(stderr, "fuzz: no input files\n");
        return 1;
    }
    fprintf(stderr, "fuzz: %d inputs, %s\n", count, bad ? "FAILED" : "all passed");
    return bad;
}
