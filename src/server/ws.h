/* server/ws.h — the WebSocket frames of RFC 6455 (section 5), server side:
 * a decoder fed the bytes a client sends after the handshake, and the
 * encoder of the server's frames.  No I/O, no allocation after
 * sv_ws_init: the connection's thread (transport.c) reads the socket and feeds
 * the decoder; the fuzz target fuzz/fuzz_protocol.c feeds it any bytes.
 *
 * Why not civetweb's: civetweb 1.15 (Debian 12) reads a whole frame before
 * its data handler sees it, allocating the length the header declares (a
 * header declaring 100 MB holds a connection while it waits for the data;
 * 2^63-1 bytes is dropped without a close frame), accepts unmasked client
 * frames and oversized pings, and hands each fragment over on its own.
 * Here every limit is applied at the header, before a payload byte is
 * read, and a violation names the close status to send (1002, 1009; a
 * text message that is not UTF-8, 1007). */
#ifndef CR_SERVER_WS_H
#define CR_SERVER_WS_H

#include <stddef.h>
#include <stdint.h>

enum {
    SV_WS_CONT = 0x0,
    SV_WS_TEXT = 0x1,
    SV_WS_BINARY = 0x2,
    SV_WS_CLOSE = 0x8,
    SV_WS_PING = 0x9,
    SV_WS_PONG = 0xA
};

/* Close status codes (RFC 6455 7.4.1). */
enum {
    SV_WS_NORMAL = 1000,
    SV_WS_GOING_AWAY = 1001,
    SV_WS_PROTOCOL = 1002,
    SV_WS_UNSUPPORTED = 1003,
    SV_WS_BAD_DATA = 1007,
    SV_WS_POLICY = 1008,
    SV_WS_TOO_BIG = 1009,
    SV_WS_INTERNAL = 1011
};

/* What one complete frame or message was, as sv_ws_feed reports it. */
typedef enum sv_ws_event {
    SV_WS_NONE = 0, /* the bytes ran out before a frame or message was complete */
    SV_WS_MESSAGE,  /* a whole message (fragments joined): op TEXT or BINARY, data, len */
    SV_WS_GOT_PING, /* a ping: data/len its payload (at most 125 bytes), to echo in a pong */
    SV_WS_GOT_PONG,
    SV_WS_GOT_CLOSE, /* the client closes: status its code (1005 when it gave none) */
    SV_WS_FAIL /* a violation: status the close code to send (1002, 1007, 1009), why a reason */
} sv_ws_event;

typedef struct sv_ws_dec {
    size_t max_message; /* the largest message, its fragments together */
    char *msg;          /* max_message bytes: the message being assembled */
    size_t msg_len;
    int msg_op;      /* TEXT or BINARY while a fragmented message is open, else 0 */
    uint8_t hdr[14]; /* the frame header read so far */
    size_t hdr_len, hdr_need;
    int op, fin;
    uint64_t len, got; /* the frame's payload: declared, read */
    uint8_t mask[4];
    uint8_t ctl[125]; /* a control frame's payload */
    int in_frame;     /* a header has begun and its frame is not complete */
} sv_ws_dec;

/* Sets d up for messages of at most max_message bytes (allocates them);
 * returns 0, or -1 out of memory. */
int sv_ws_init(sv_ws_dec *d, size_t max_message);
void sv_ws_free(sv_ws_dec *d);

/* Reads bytes from p[0..n) until one event is complete: *used says how many
 * were taken (feed the rest again).  SV_WS_MESSAGE's data points into the
 * decoder (valid until the next call); SV_WS_FAIL's reason is static text.
 * After SV_WS_FAIL or SV_WS_GOT_CLOSE, feed nothing more. */
sv_ws_event sv_ws_feed(sv_ws_dec *d, const uint8_t *p, size_t n, size_t *used, const char **data,
                       size_t *len, int *op, int *status, const char **why);

/* Whether s[0..n) is UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF). */
int sv_ws_utf8(const char *s, size_t n);

/* Whether a frame is under way (a deadline applies to its bytes). */
int sv_ws_mid_frame(const sv_ws_dec *d);

/* Writes the header of an unmasked server frame (FIN set) of op and len
 * payload bytes into out[10]; returns its length (2, 4 or 10). */
size_t sv_ws_header(uint8_t out[10], int op, size_t len);

#endif
