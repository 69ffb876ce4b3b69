/* server/store.c — cr_store_open: picks the backend from the URL's scheme. */
#include <stdio.h>
#include <string.h>

#include "server/store.h"

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
