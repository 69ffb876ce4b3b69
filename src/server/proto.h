/* server/proto.h — the protocol's message parser (docs/protocol.md): one
 * client frame (bytes from the network) into a fixed-size, checked struct.
 * Nothing here knows games or connections; the fuzz target
 * fuzz/fuzz_protocol.c feeds it arbitrary bytes.  Every string field is
 * NUL-terminated and bounded; every number is range-checked. */
#ifndef CR_SERVER_PROTO_H
#define CR_SERVER_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/game.h"

enum { SV_PROTO_VERSION = 1 };

typedef enum sv_type {
    SV_HELLO = 1,
    SV_CREATE,
    SV_LIST,
    SV_JOIN,
    SV_SIT,
    SV_SPECTATE,
    SV_ACT,
    SV_HISTORY,
    SV_RESIGN,
    SV_BOT,
    SV_RECORD,
    SV_STATS,
    SV_REPLAY,
    SV_ANALYSE,
    SV_HINT
} sv_type;

typedef enum sv_clock_mode { SV_CLOCK_NONE = 0, SV_CLOCK_MOVE, SV_CLOCK_TOTAL } sv_clock_mode;

enum {
    SV_SPEC_MAX = 128,
    SV_TEXT_MAX = 256,
    SV_TOKEN_LEN = 43, /* base64url of 32 bytes, no padding */
    SV_URL_MAX = 512,
    SV_OPT_MAX = 64,
    SV_TIER_MAX = 32,            /* hint: a tier's name */
    SV_ANALYSE_ITERS = 300,      /* analyse: search iterations a decision, by default */
    SV_ANALYSE_ITERS_MAX = 2000, /* ... at most */
    /* Arrays and objects nest at most this deep in a frame (the deepest
     * message, create's clock or options, has 2 levels); deeper frames are
     * refused by a scan before jansson, whose parser recurses per level. */
    SV_MAX_DEPTH = 32,
    SV_SCAN_KEY = 64 /* the longest key path an out-of-range error names */
};

typedef struct sv_msg {
    sv_type type;
    int has_id;
    int64_t id; /* 0 .. 2^53 */
    char game_id[33];
    char token[SV_TOKEN_LEN + 1];
    int seat;         /* -1: not given (replay: the public view) */
    int64_t since;    /* -1: not given */
    int64_t decision; /* -1: not given */
    int64_t step;     /* replay: the record actions applied */
    int has_action;
    int32_t action;
    char text[SV_TEXT_MAX]; /* act: notation */
    char spec[SV_SPEC_MAX]; /* bot */
    int status;             /* list: 0 all, 1 open, 2 running, 3 finished */
    /* create */
    char game[32];
    char variant[32];
    int players; /* 0: the variant's default */
    int n_options;
    char opt_key[CR_MAX_OPTIONS][SV_OPT_MAX];
    char opt_val[CR_MAX_OPTIONS][SV_OPT_MAX];
    int n_seats;
    char seats[CR_MAX_PLAYERS][SV_SPEC_MAX];
    int sit; /* -1: not given */
    sv_clock_mode clock_mode;
    int64_t clock_initial_ms, clock_increment_ms;
    char clock_on_timeout[SV_SPEC_MAX]; /* "end" or a bot spec */
    char webhook[SV_URL_MAX + 1];
    int hints; /* create: 1 when every player agrees to hints ("hints": "allowed") */
    /* analyse (game_id, seat): search iterations a decision */
    int64_t iters;
    char tier[SV_TIER_MAX]; /* hint: a tier's name ("": the game's strongest) */
} sv_msg;

/* The fields each client message may carry, as the parser reads them: the
 * bounds below are the ones it enforces (proto.c takes them from this table
 * and nowhere else), and docs/protocol.schema.json says the same, which
 * tests/server/test_proto_schema.c checks in both directions.  A field the
 * parser reads must have its row (a getter asking for a key without one
 * aborts: a programming error that every test and the fuzz target meet). */
typedef enum sv_kind {
    SV_K_INT = 1, /* an integer in [min, max] */
    SV_K_STR,     /* a string of min..max UTF-8 bytes without control characters */
    SV_K_ENUM,    /* one of `values` ('|' between them) */
    SV_K_GAME_ID, /* 32 lowercase hex digits (sv_is_game_id) */
    SV_K_URL,     /* a STR that is a webhook URL (sv_parse_http_url) */
    SV_K_OBJ,     /* an object of min..max keys: its keys are the rows of "msg.key" */
    SV_K_ARR      /* an array of min..max items: each item is the row "msg.key" "[]" */
} sv_kind;

enum {
    SV_F_REQUIRED = 1, /* the message is refused without it */
    SV_F_NULL = 2      /* null is taken as absent */
};

typedef struct sv_field {
    const char *msg; /* the message type ("create"), or "create.clock" inside a field */
    const char *key; /* "[]": each item of an array; "*": any key of an object */
    sv_kind kind;
    int flags;
    int64_t min, max; /* INT: the range; STR, URL: the length; ARR: items; OBJ: keys (max 0: any) */
    const char *values; /* ENUM: "all|open|running|finished" */
} sv_field;

/* The table above: n rows. */
const sv_field *sv_proto_fields(size_t *n);
/* The name of message type t ("act"); NULL outside SV_HELLO..SV_HINT. */
const char *sv_type_name(sv_type t);
/* The error codes of the protocol (docs/protocol.schema.json, error_code):
 * the only codes an `error` may carry. */
const char *const *sv_error_codes(size_t *n);

/* Parses one frame.  On failure returns non-zero, *code is the error code
 * of docs/protocol.md ("bad_json", "version", "bad_request") and err a
 * one-line reason; out->has_id/out->id are still set when the frame had a
 * usable id, so the error can answer it. */
int sv_proto_parse(const char *data, size_t len, sv_msg *out, const char **code, char *err,
                   size_t errcap);

/* Whether s is a game id (32 lowercase hex digits). */
int sv_is_game_id(const char *s);
/* Whether url is a webhook URL the server accepts: http://HOST[:PORT]/PATH
 * with HOST of letters, digits, '.', '-' (or an IPv4 address), no
 * credentials, printable ASCII only.  Fills host/port/path. */
int sv_parse_http_url(const char *url, char *host, size_t hostcap, int *port, char *path,
                      size_t pathcap);

#endif
