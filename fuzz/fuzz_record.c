/* fuzz_record.c — libFuzzer target: bytes -> cr_record_load.
 *
 * A record that loads is a game that happened, so writing it must give a
 * text that loads back to the same header, the same actions and the same
 * final state bytes, and writing that again must give the same text.  A
 * refused record must come with a message ("line N: ...").  ASan and UBSan
 * watch the loader and the replay of every action. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/record.h"
#include "fuzz_common.h"

/* cr_record_write into memory; caller frees the text. */
static char *write_record(const cr_record *r, size_t *len)
{
    char *text = NULL, err[512] = "";
    FILE *f = open_memstream(&text, len);
    FUZZ_CHECK(f != NULL, "open_memstream failed");
    cr_status rc = cr_record_write(r, f, err, sizeof err);
    FUZZ_CHECK(fclose(f) == 0, "closing the memory stream failed");
    FUZZ_CHECK(rc == CR_OK, "a loaded record does not write: %s", err);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cr_record r, again;
    cr_game *g = NULL, *g2 = NULL;
    void *st = NULL, *st2 = NULL;
    char err[512];
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = '\0';

    cr_status rc = cr_record_load((const char *)data, size, NULL, &r, &g, &st, err, sizeof err);
    if (rc != CR_OK) {
        FUZZ_CHECK(g == NULL && st == NULL, "a refused record returned a game or a state");
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err - 1) != NULL,
                   "a refused record (%s) came without a message", cr_status_str(rc));
        return 0;
    }
    FUZZ_CHECK(g != NULL && st != NULL, "a loaded record returned no game or state");

    size_t len1, len2;
    char *text1 = write_record(&r, &len1);
    rc = cr_record_load(text1, len1, NULL, &again, &g2, &st2, err, sizeof err);
    FUZZ_CHECK(rc == CR_OK, "the written record does not load: %s\n%s", err, text1);
    FUZZ_CHECK(strcmp(r.game, again.game) == 0 && strcmp(r.variant, again.variant) == 0 &&
                   r.num_players == again.num_players && r.n_options == again.n_options &&
                   r.rules_version == again.rules_version && r.n_marks == again.n_marks &&
                   r.has_seed == again.has_seed && (!r.has_seed || r.seed == again.seed),
               "the header changed in write -> load:\n%s", text1);
    FUZZ_CHECK(r.n_actions == again.n_actions &&
                   (r.n_actions == 0 ||
                    memcmp(r.actions, again.actions, (size_t)r.n_actions * sizeof *r.actions) == 0),
               "the actions changed in write -> load (%d, then %d):\n%s", r.n_actions,
               again.n_actions, text1);
    FUZZ_CHECK(g->state_size == g2->state_size && memcmp(st, st2, g->state_size) == 0,
               "the final state changed in write -> load:\n%s", text1);
    char *text2 = write_record(&again, &len2);
    FUZZ_CHECK(len1 == len2 && memcmp(text1, text2, len1) == 0,
               "write -> load -> write changed the text:\n%s\n---\n%s", text1, text2);

    free(text2);
    free(text1);
    cr_free(st2);
    cr_game_free(g2);
    cr_record_fini(&again);
    cr_free(st);
    cr_game_free(g);
    cr_record_fini(&r);
    return 0;
}
