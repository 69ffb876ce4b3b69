/* tests/server/test_ws.c — the WebSocket frame decoder (src/server/ws.c)
 * and the frame scan of the message parser (src/server/proto.c), the
 * pieces of issue 15's findings that need no server:
 *
 *   header_limits        a header declaring more than the message limit is
 *                        refused at the header (1009), before any payload
 *                        byte, for 100 MB and for 2^63-1; a length with
 *                        its top bit set is a protocol error (1002)
 *   masks_and_bits       unmasked frames, reserved bits, unknown opcodes (1002)
 *   control_frames       a ping echoed; a ping of 126 bytes, a fragmented
 *                        ping (1002); a close's status
 *   fragments            a message in three fragments with a ping between,
 *                        fed one byte at a time; a continuation with no
 *                        message open, a new message inside one (1002); the
 *                        limit counts the fragments together
 *   utf8                 a text message that is not UTF-8 is 1007: overlong
 *                        forms, surrogates, past U+10FFFF, cut sequences
 *   encoder              the server's headers for 0, 125, 126, 65535, 65536 bytes
 *   nesting              1,000 nested arrays or objects are bad_json with
 *                        the id readable before them as re; 32 levels parse
 *   big_numbers          integers past 64 bits are bad_request naming the
 *                        field, the id's own error carries no re; an odd key
 *                        is not echoed
 *   truncated_id         a frame that is not JSON still answers its id */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "server/proto.h"
#include "server/ws.h"

/* A masked client frame (key 0x11 0x22 0x33 0x44) into out; its length. */
static size_t frame(uint8_t *out, int fin, int op, const void *payload, size_t n, uint64_t declared)
{
    static const uint8_t key[4] = {0x11, 0x22, 0x33, 0x44};
    size_t k = 0;
    out[k++] = (uint8_t)((fin ? 0x80 : 0) | op);
    if (declared < 126) {
        out[k++] = (uint8_t)(0x80 | declared);
    } else if (declared <= 0xffff) {
        out[k++] = 0x80 | 126;
        out[k++] = (uint8_t)(declared >> 8);
        out[k++] = (uint8_t)declared;
    } else {
        out[k++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) out[k++] = (uint8_t)(declared >> (8 * i));
    }
    memcpy(out + k, key, 4);
    k += 4;
    for (size_t i = 0; i < n; i++) out[k + i] = ((const uint8_t *)payload)[i] ^ key[i & 3];
    return k + n;
}

typedef struct result {
    sv_ws_event ev;
    size_t used;
    const char *data;
    size_t len;
    int op, status;
    const char *why;
} result;

static result feed(sv_ws_dec *d, const uint8_t *p, size_t n)
{
    result r = {0};
    r.ev = sv_ws_feed(d, p, n, &r.used, &r.data, &r.len, &r.op, &r.status, &r.why);
    return r;
}

static void header_limits(void **state)
{
    (void)state;
    uint8_t buf[64];
    sv_ws_dec d;
    assert_int_equal(sv_ws_init(&d, 16384), 0);
    size_t n = frame(buf, 1, SV_WS_TEXT, "", 0, 100000000);
    result r = feed(&d, buf, n); /* the header alone: refused before any payload */
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_TOO_BIG);
    assert_int_equal(r.used, n);
    sv_ws_free(&d);

    assert_int_equal(sv_ws_init(&d, 16384), 0);
    n = frame(buf, 1, SV_WS_TEXT, "", 0, INT64_MAX);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_TOO_BIG);
    sv_ws_free(&d);

    assert_int_equal(sv_ws_init(&d, 16384), 0);
    n = frame(buf, 1, SV_WS_TEXT, "", 0, UINT64_MAX);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);

    /* exactly the limit passes */
    assert_int_equal(sv_ws_init(&d, 16), 0);
    n = frame(buf, 1, SV_WS_TEXT, "0123456789abcdef", 16, 16);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_MESSAGE);
    assert_int_equal(r.len, 16);
    assert_memory_equal(r.data, "0123456789abcdef", 16);
    sv_ws_free(&d);
}

static void masks_and_bits(void **state)
{
    (void)state;
    sv_ws_dec d;
    const uint8_t unmasked[] = {0x81, 0x02, 'h', 'i'};
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    result r = feed(&d, unmasked, sizeof unmasked);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);

    uint8_t buf[32];
    size_t n = frame(buf, 1, SV_WS_TEXT, "hi", 2, 2);
    buf[0] |= 0x40; /* RSV1 */
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);

    n = frame(buf, 1, 0x3, "hi", 2, 2); /* a reserved opcode */
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);
}

static void control_frames(void **state)
{
    (void)state;
    uint8_t buf[256], big[126];
    memset(big, 'p', sizeof big);
    sv_ws_dec d;
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    size_t n = frame(buf, 1, SV_WS_PING, "abc", 3, 3);
    result r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_GOT_PING);
    assert_int_equal(r.len, 3);
    assert_memory_equal(r.data, "abc", 3);
    n = frame(buf, 1, SV_WS_CLOSE, "\x03\xe8", 2, 2);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_GOT_CLOSE);
    assert_int_equal(r.status, 1000);
    sv_ws_free(&d);

    assert_int_equal(sv_ws_init(&d, 1024), 0);
    n = frame(buf, 1, SV_WS_PING, big, sizeof big, sizeof big);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    assert_true(r.used < n); /* refused at the header */
    sv_ws_free(&d);

    assert_int_equal(sv_ws_init(&d, 1024), 0);
    n = frame(buf, 0, SV_WS_PING, "a", 1, 1);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);
}

static void fragments(void **state)
{
    (void)state;
    const char *msg = "{\"v\":1,\"type\":\"hello\",\"id\":8}";
    uint8_t buf[256];
    size_t n = frame(buf, 0, SV_WS_TEXT, msg, 10, 10);
    n += frame(buf + n, 1, SV_WS_PING, "x", 1, 1);
    n += frame(buf + n, 0, SV_WS_CONT, msg + 10, 10, 10);
    n += frame(buf + n, 1, SV_WS_CONT, msg + 20, strlen(msg) - 20, strlen(msg) - 20);
    sv_ws_dec d;
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    int pings = 0, messages = 0;
    for (size_t i = 0; i < n; i++) { /* one byte at a time, as a slow socket */
        result r = feed(&d, buf + i, 1);
        assert_int_equal(r.used, 1);
        assert_true(r.ev != SV_WS_FAIL);
        if (r.ev == SV_WS_GOT_PING) pings++;
        if (r.ev == SV_WS_MESSAGE) {
            messages++;
            assert_int_equal(r.op, SV_WS_TEXT);
            assert_int_equal(r.len, strlen(msg));
            assert_memory_equal(r.data, msg, r.len);
        }
        if (i == 0) assert_true(sv_ws_mid_frame(&d)); /* a header has begun */
    }
    assert_false(sv_ws_mid_frame(&d));
    assert_int_equal(pings, 1);
    assert_int_equal(messages, 1);
    sv_ws_free(&d);

    /* a continuation with no message open; a new message inside one */
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    n = frame(buf, 1, SV_WS_CONT, "a", 1, 1);
    result r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    n = frame(buf, 0, SV_WS_TEXT, "a", 1, 1);
    n += frame(buf + n, 1, SV_WS_TEXT, "b", 1, 1);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_PROTOCOL);
    sv_ws_free(&d);

    /* the limit holds for the fragments together */
    assert_int_equal(sv_ws_init(&d, 8), 0);
    n = frame(buf, 0, SV_WS_TEXT, "12345", 5, 5);
    n += frame(buf + n, 1, SV_WS_CONT, "6789", 4, 4);
    r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_TOO_BIG);
    sv_ws_free(&d);
}

static void utf8(void **state)
{
    (void)state;
    assert_true(sv_ws_utf8("plain", 5));
    assert_true(sv_ws_utf8("7\xe2\x99\xa0 \xf0\x9f\x82\xa1", 9)); /* 7♠ and a U+1F0A1 */
    assert_false(sv_ws_utf8("\xc0\xaf", 2));                      /* overlong '/' */
    assert_false(sv_ws_utf8("\xe0\x80\xaf", 3));                  /* overlong */
    assert_false(sv_ws_utf8("\xed\xa0\x80", 3));                  /* a surrogate */
    assert_false(sv_ws_utf8("\xf4\x90\x80\x80", 4));              /* past U+10FFFF */
    assert_false(sv_ws_utf8("\xe2\x99", 2));                      /* cut */
    assert_false(sv_ws_utf8("\xff", 1));
    uint8_t buf[64];
    size_t n = frame(buf, 1, SV_WS_TEXT, "{\"x\":\"\xff\"}", 9, 9);
    sv_ws_dec d;
    assert_int_equal(sv_ws_init(&d, 1024), 0);
    result r = feed(&d, buf, n);
    assert_int_equal(r.ev, SV_WS_FAIL);
    assert_int_equal(r.status, SV_WS_BAD_DATA);
    sv_ws_free(&d);
}

static void encoder(void **state)
{
    (void)state;
    uint8_t h[10];
    assert_int_equal(sv_ws_header(h, SV_WS_TEXT, 0), 2);
    assert_int_equal(h[0], 0x81);
    assert_int_equal(h[1], 0);
    assert_int_equal(sv_ws_header(h, SV_WS_TEXT, 125), 2);
    assert_int_equal(h[1], 125);
    assert_int_equal(sv_ws_header(h, SV_WS_PONG, 126), 4);
    assert_int_equal(h[0], 0x8a);
    assert_int_equal(h[1], 126);
    assert_int_equal(h[2] << 8 | h[3], 126);
    assert_int_equal(sv_ws_header(h, SV_WS_TEXT, 65535), 4);
    assert_int_equal(h[2] << 8 | h[3], 65535);
    assert_int_equal(sv_ws_header(h, SV_WS_TEXT, 65536), 10);
    assert_int_equal(h[1], 127);
    uint64_t len = 0;
    for (int i = 2; i < 10; i++) len = len << 8 | h[i];
    assert_int_equal(len, 65536);
}

static int parse(const char *text, sv_msg *m, const char **code, char *err)
{
    return sv_proto_parse(text, strlen(text), m, code, err, 256);
}

static void nesting(void **state)
{
    (void)state;
    size_t cap = 8000;
    char *s = malloc(cap);
    sv_msg *m = malloc(sizeof *m);
    const char *code;
    char err[256];
    for (int objects = 0; objects < 2; objects++) {
        int k = snprintf(s, cap, "{\"v\":1,\"type\":\"hello\",\"id\":1,\"x\":");
        for (int i = 0; i < 1000; i++)
            k += snprintf(s + k, cap - (size_t)k, objects ? "{\"a\":" : "[");
        for (int i = 0; i < 1000; i++) k += snprintf(s + k, cap - (size_t)k, objects ? "}" : "]");
        snprintf(s + k, cap - (size_t)k, "}");
        assert_int_not_equal(parse(s, m, &code, err), 0);
        assert_string_equal(code, "bad_json");
        assert_non_null(strstr(err, "deeper than 32"));
        assert_true(m->has_id);
        assert_int_equal(m->id, 1);
    }
    /* 31 levels inside the message's own object: 32 in all, accepted */
    int k = snprintf(s, cap, "{\"v\":1,\"type\":\"hello\",\"id\":2,\"x\":");
    for (int i = 0; i < 31; i++) k += snprintf(s + k, cap - (size_t)k, "[");
    for (int i = 0; i < 31; i++) k += snprintf(s + k, cap - (size_t)k, "]");
    snprintf(s + k, cap - (size_t)k, "}");
    assert_int_equal(parse(s, m, &code, err), 0);
    assert_int_equal(m->type, SV_HELLO);
    free(m);
    free(s);
}

static void big_numbers(void **state)
{
    (void)state;
    sv_msg *m = malloc(sizeof *m);
    const char *code;
    char err[256];
    assert_int_not_equal(
        parse("{\"v\":1,\"type\":\"hello\",\"id\":18446744073709551616}", m, &code, err), 0);
    assert_string_equal(code, "bad_request");
    assert_non_null(strstr(err, "'id'"));
    assert_false(m->has_id);

    assert_int_not_equal(
        parse("{\"v\":1,\"type\":\"act\",\"id\":5,\"decision\":99999999999999999999,\"action\":1}",
              m, &code, err),
        0);
    assert_string_equal(code, "bad_request");
    assert_non_null(strstr(err, "'decision'"));
    assert_true(m->has_id);
    assert_int_equal(m->id, 5);

    assert_int_not_equal(parse("{\"v\":1,\"type\":\"create\",\"id\":6,\"clock\":{\"initial_ms\":"
                               "-9223372036854775809}}",
                               m, &code, err),
                         0);
    assert_string_equal(code, "bad_request");
    assert_non_null(strstr(err, "'clock.initial_ms'"));

    /* a key that is no plain name is not echoed */
    assert_int_not_equal(
        parse("{\"v\":1,\"type\":\"hello\",\"id\":9,\"a\\\"b\":99999999999999999999}", m, &code,
              err),
        0);
    assert_string_equal(code, "bad_request");
    assert_non_null(strstr(err, "'?'"));

    /* INT64_MAX and INT64_MIN are integers jansson reads: the field's own
     * range answers */
    assert_int_not_equal(
        parse("{\"v\":1,\"type\":\"act\",\"id\":5,\"decision\":9223372036854775807,\"action\":1}",
              m, &code, err),
        0);
    assert_string_equal(code, "bad_request");
    assert_non_null(strstr(err, "'decision' must be an integer"));
    free(m);
}

static void truncated_id(void **state)
{
    (void)state;
    sv_msg *m = malloc(sizeof *m);
    const char *code;
    char err[256];
    assert_int_not_equal(parse("{\"v\":1,\"type\":\"hello\",\"id\":7,", m, &code, err), 0);
    assert_string_equal(code, "bad_json");
    assert_true(m->has_id);
    assert_int_equal(m->id, 7);
    /* an "id" inside a string or deeper is not the message's */
    assert_int_not_equal(parse("{\"v\":1,\"x\":\"\\\"id\\\":3\",\"y\":{\"id\":4},", m, &code, err),
                         0);
    assert_false(m->has_id);
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_limits),  cmocka_unit_test(masks_and_bits),
        cmocka_unit_test(control_frames), cmocka_unit_test(fragments),
        cmocka_unit_test(utf8),           cmocka_unit_test(encoder),
        cmocka_unit_test(nesting),        cmocka_unit_test(big_numbers),
        cmocka_unit_test(truncated_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
