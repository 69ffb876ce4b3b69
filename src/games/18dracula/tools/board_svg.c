/* d18-board-svg — draws an 18Dracula board file as SVG.
 *
 *   d18-board-svg [BOARD] [-o OUT.svg]     write the picture (stdout by default)
 *   d18-board-svg [BOARD] --check SVG      exit 1 if SVG is not exactly the picture
 *
 * Without BOARD it draws the bundled board.  A board that does not parse is
 * refused with the parser's message (file:line: what is wrong), exit 2.
 * docs/18dracula-board.svg is this tool's output for the bundled board; a
 * test runs --check on it so the picture in the docs never goes stale.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/18dracula/board.h"

enum { SVG_CAP = 1 << 20 };

static int usage(void)
{
    fprintf(stderr, "usage: d18-board-svg [BOARD] [-o OUT.svg | --check SVG]\n");
    return 2;
}

/* Reads at most cap bytes of path into buf; -1 on error or if larger. */
static long read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    size_t n = fread(buf, 1, cap, f);
    int more = fgetc(f) != EOF;
    int bad = ferror(f);
    fclose(f);
    return more || bad ? -1 : (long)n;
}

int main(int argc, char **argv)
{
    const char *board_path = NULL, *out_path = NULL, *check_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && out_path == NULL && !check_path)
            out_path = argv[++i];
        else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc && !check_path && !out_path)
            check_path = argv[++i];
        else if (argv[i][0] != '-' && board_path == NULL)
            board_path = argv[i];
        else
            return usage();
    }
    static d18_board board;
    const d18_board *b = &board;
    if (board_path) {
        static char text[D18_MAX_FILE + 1];
        long n = read_file(board_path, text, sizeof text);
        if (n < 0) {
            fprintf(stderr,
                    "d18-board-svg: cannot read %s (missing, unreadable or larger than "
                    "%d bytes)\n",
                    board_path, D18_MAX_FILE);
            return 2;
        }
        char err[512];
        if (d18_board_parse(text, (size_t)n, board_path, &board, err, sizeof err) != CR_OK) {
            fprintf(stderr, "d18-board-svg: %s\n", err);
            return 2;
        }
    } else {
        b = d18_board_builtin();
    }
    static char svg[SVG_CAP];
    size_t len = d18_board_svg(b, svg, sizeof svg);
    if (len >= sizeof svg) {
        fprintf(stderr, "d18-board-svg: the picture is larger than %d bytes\n", SVG_CAP);
        return 2;
    }
    if (check_path) {
        static char old[SVG_CAP];
        long n = read_file(check_path, old, sizeof old);
        if (n == (long)len && memcmp(old, svg, len) == 0) return 0;
        fprintf(stderr,
                "d18-board-svg: %s is not the picture of %s; regenerate it with\n"
                "  d18-board-svg %s -o %s\n",
                check_path, board_path ? board_path : "the bundled board",
                board_path ? board_path : "", check_path);
        return 1;
    }
    FILE *f = out_path ? fopen(out_path, "wb") : stdout;
    if (f == NULL) {
        fprintf(stderr, "d18-board-svg: cannot write %s\n", out_path);
        return 2;
    }
    int ok = fwrite(svg, 1, len, f) == len;
    if (out_path) ok &= fclose(f) == 0;
    if (!ok) {
        fprintf(stderr, "d18-board-svg: write error\n");
        return 2;
    }
    return 0;
}
