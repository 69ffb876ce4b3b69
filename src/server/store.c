/* server/store.c — cr_store_open: picks the backend from the URL's scheme. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/store.h"

size_t cr_store_clock_format(const cr_store_clock *c, int n, char *buf, size_t cap)
{
    size_t len = 0;
    int w = snprintf(buf, cap, "%d %" PRId64, c->seat, c->started_ms);
    for (int s = 0; w >= 0 && s < n && s < CR_MAX_PLAYERS; s++) {
        len += (size_t)w;
        w = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, " %" PRId64,
                     c->remaining_ms[s]);
    }
    return w >= 0 ? len + (size_t)w : len;
}

int cr_store_clock_parse(const char *text, int n, cr_store_clock *c)
{
    memset(c, 0, sizeof *c);
    if (!text || !*text || n < 1 || n > CR_MAX_PLAYERS) return 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || v < -1 || v >= n) return 0;
    c->seat = (int)v;
    const char *p = end;
    c->started_ms = strtoll(p, &end, 10);
    if (end == p) return 0;
    for (int s = 0; s < n; s++) {
        p = end;
        c->remaining_ms[s] = strtoll(p, &end, 10);
        if (end == p) return 0;
    }
    return *end == '\0';
}

cr_store *cr_store_open(const char *url, char *err, size_t errcap)
{
    if (!url) url = "";
    if (strncmp(url, "sqlite:", 7) == 0) return cr_store_sqlite_open(url + 7, err, errcap);
    if (strncmp(url, "postgres://", 11) == 0 || strncmp(url, "postgresql://", 13) == 0) {
#ifdef CR_HAVE_PG
        return cr_store_pg_open(url, err, errcap);
#else
        snprintf(err, errcap, "this croupier was built without PostgreSQL (libpq)");
        return NULL;
#endif
    }
    snprintf(err, errcap, "unknown store URL (expected sqlite:PATH or postgres://...)");
    return NULL;
}
