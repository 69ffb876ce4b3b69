/* server/ws.c — RFC 6455 frames, server side (ws.h).  The decoder is a
 * state machine over the bytes: a header (2 to 14 bytes) is collected and
 * checked whole before its payload is read, so a frame that breaks a rule
 * or a limit is refused before the server spends memory or time on it. */
#include <stdlib.h>
#include <string.h>

#include "server/ws.h"

#include "croupier/text.h"

int sv_ws_init(sv_ws_dec *d, size_t max_message)
{
    memset(d, 0, sizeof *d);
    d->max_message = max_message;
    d->msg = malloc(max_message ? max_message : 1);
    d->hdr_need = 2;
    return d->msg ? 0 : -1;
}

void sv_ws_free(sv_ws_dec *d)
{
    free(d->msg);
    d->msg = NULL;
}

int sv_ws_mid_frame(const sv_ws_dec *d) { return d->in_frame; }

static sv_ws_event sv_ws_fail(int code, const char *reason, int *status, const char **why)
{
    *status = code;
    *why = reason;
    return SV_WS_FAIL;
}

/* Checks a complete header and sets the frame up; SV_WS_NONE when it is
 * acceptable. */
static sv_ws_event sv_ws_header_done(sv_ws_dec *d, int *status, const char **why)
{
    const uint8_t *h = d->hdr;
    d->fin = (h[0] & 0x80) != 0;
    d->op = h[0] & 0x0f;
    uint8_t l7 = h[1] & 0x7f;
    if (h[0] & 0x70) return sv_ws_fail(SV_WS_PROTOCOL, "reserved bits set", status, why);
    if (!(h[1] & 0x80))
        return sv_ws_fail(SV_WS_PROTOCOL, "a client frame must be masked", status, why);
    if (l7 < 126) {
        d->len = l7;
    } else if (l7 == 126) {
        d->len = (uint64_t)h[2] << 8 | h[3];
    } else {
        d->len = 0;
        for (int i = 2; i < 10; i++) d->len = d->len << 8 | h[i];
        if (d->len >> 63)
            return sv_ws_fail(SV_WS_PROTOCOL, "a length with its top bit set", status, why);
    }
    memcpy(d->mask, h + d->hdr_len - 4, 4);
    d->got = 0;
    switch (d->op) {
    case SV_WS_CLOSE:
    case SV_WS_PING:
    case SV_WS_PONG:
        if (!d->fin) return sv_ws_fail(SV_WS_PROTOCOL, "a fragmented control frame", status, why);
        if (d->len > 125)
            return sv_ws_fail(SV_WS_PROTOCOL, "a control frame over 125 bytes", status, why);
        return SV_WS_NONE;
    case SV_WS_CONT:
        if (!d->msg_op)
            return sv_ws_fail(SV_WS_PROTOCOL, "a continuation frame with no message open", status,
                              why);
        break;
    case SV_WS_TEXT:
    case SV_WS_BINARY:
        if (d->msg_op)
            return sv_ws_fail(SV_WS_PROTOCOL, "a new message inside a fragmented one", status, why);
        d->msg_op = d->op;
        d->msg_len = 0;
        break;
    default: return sv_ws_fail(SV_WS_PROTOCOL, "an unknown opcode", status, why);
    }
    if (d->len > d->max_message - d->msg_len)
        return sv_ws_fail(SV_WS_TOO_BIG, "message over the server's size limit", status, why);
    return SV_WS_NONE;
}

int sv_ws_utf8(const char *s, size_t n)
{
    for (size_t i = 0, k; i < n; i += k)
        if ((k = cr_utf8_seq(s + i, n - i)) == 0) return 0;
    return 1;
}

/* The frame's payload is complete: what it makes. */
static sv_ws_event sv_ws_frame_done(sv_ws_dec *d, const char **data, size_t *len, int *op,
                                    int *status, const char **why)
{
    d->in_frame = 0;
    d->hdr_len = 0;
    d->hdr_need = 2;
    switch (d->op) {
    case SV_WS_PING:
        *data = (const char *)d->ctl;
        *len = (size_t)d->len;
        return SV_WS_GOT_PING;
    case SV_WS_PONG: return SV_WS_GOT_PONG;
    case SV_WS_CLOSE:
        *status = d->len >= 2 ? d->ctl[0] << 8 | d->ctl[1] : 1005;
        return SV_WS_GOT_CLOSE;
    default:
        if (!d->fin) return SV_WS_NONE;
        if (d->msg_op == SV_WS_TEXT && !sv_ws_utf8(d->msg, d->msg_len)) {
            d->msg_op = 0;
            *status = SV_WS_BAD_DATA;
            *why = "a text message that is not UTF-8";
            return SV_WS_FAIL;
        }
        *op = d->msg_op;
        *data = d->msg;
        *len = d->msg_len;
        d->msg_op = 0;
        return SV_WS_MESSAGE;
    }
}

sv_ws_event sv_ws_feed(sv_ws_dec *d, const uint8_t *p, size_t n, size_t *used, const char **data,
                       size_t *len, int *op, int *status, const char **why)
{
    size_t i = 0;
    sv_ws_event ev = SV_WS_NONE;
    while (i < n && ev == SV_WS_NONE) {
        if (d->hdr_len < d->hdr_need) {
            d->in_frame = 1;
            d->hdr[d->hdr_len++] = p[i++];
            if (d->hdr_len == 2) {
                uint8_t l7 = d->hdr[1] & 0x7f;
                d->hdr_need = 2 + (l7 == 126 ? 2 : l7 == 127 ? 8 : 0) + (d->hdr[1] & 0x80 ? 4 : 0);
            }
            if (d->hdr_len < d->hdr_need) continue;
            ev = sv_ws_header_done(d, status, why);
            if (ev == SV_WS_NONE && d->len == 0)
                ev = sv_ws_frame_done(d, data, len, op, status, why);
            continue;
        }
        size_t take = n - i;
        if (take > d->len - d->got) take = (size_t)(d->len - d->got);
        uint8_t *dst = d->op >= SV_WS_CLOSE ? d->ctl + d->got : (uint8_t *)d->msg + d->msg_len;
        for (size_t k = 0; k < take; k++) dst[k] = p[i + k] ^ d->mask[(d->got + k) & 3];
        if (d->op < SV_WS_CLOSE) d->msg_len += take;
        d->got += take;
        i += take;
        if (d->got == d->len) ev = sv_ws_frame_done(d, data, len, op, status, why);
    }
    *used = i;
    return ev;
}

size_t sv_ws_header(uint8_t out[10], int op, size_t len)
{
    out[0] = (uint8_t)(0x80 | (op & 0x0f));
    if (len < 126) {
        out[1] = (uint8_t)len;
        return 2;
    }
    if (len <= 0xffff) {
        out[1] = 126;
        out[2] = (uint8_t)(len >> 8);
        out[3] = (uint8_t)len;
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; i++) out[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
    return 10;
}
