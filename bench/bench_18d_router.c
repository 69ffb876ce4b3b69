/* bench_18d_router.c — the auto-router's benchmark alone (the same figures
 * `croupier bench 18dracula` prints), on the bundled board or a board file.
 *
 *   bench_18d_router [POSITIONS [SEED [BRUTE_LEAVES [BOARD_FILE]]]]
 *
 * BRUTE_LEAVES 0 skips the brute force. */
#include <stdio.h>
#include <stdlib.h>

#include "games/18dracula/board.h"
#include "games/18dracula/router.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    uint64_t leaves = argc > 3 ? strtoull(argv[3], NULL, 10) : 20000000;
    const d18_board *b = d18_board_builtin();
    static d18_board loaded;
    if (argc > 4) {
        FILE *f = fopen(argv[4], "rb");
        if (!f) {
            perror(argv[4]);
            return 1;
        }
        static char text[D18_MAX_FILE + 1];
        size_t len = fread(text, 1, sizeof text, f);
        fclose(f);
        char err[512];
        if (d18_board_parse(text, len, argv[4], &loaded, err, sizeof err) != CR_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        b = &loaded;
    }
    if (n < 1 || n > 1000000) {
        fprintf(stderr, "POSITIONS must be 1..1000000\n");
        return 2;
    }
    d18_router_bench(stdout, b, n, seed, leaves);
    return 0;
}
