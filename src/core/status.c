/* status.c — names of the cr_status codes, for messages and logs.  The
 * strings are static and never change: tests and scripts may match them. */
#include "croupier/status.h"

const char *cr_status_str(cr_status s)
{
    switch (s) {
    case CR_OK: return "ok";
    case CR_ERR_ILLEGAL: return "illegal";
    case CR_ERR_PARSE: return "parse error";
    case CR_ERR_INVALID: return "invalid";
    case CR_ERR_NOMEM: return "out of memory";
    case CR_ERR_IO: return "i/o error";
    case CR_ERR_UNSUPPORTED: return "unsupported";
    }
    return "unknown status";
}
