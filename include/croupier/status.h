/* croupier/status.h — status codes returned by every fallible function. */
#ifndef CROUPIER_STATUS_H
#define CROUPIER_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef enum cr_status {
    CR_OK = 0,
    CR_ERR_ILLEGAL, /* a well-formed request the rules do not allow now */
    CR_ERR_PARSE,   /* malformed text, JSON or notation */
    CR_ERR_INVALID, /* well-formed but impossible (a position breaking the rules) */
    CR_ERR_NOMEM,
    CR_ERR_IO,
    CR_ERR_UNSUPPORTED,
} cr_status;

const char *cr_status_str(cr_status s);

#if defined(__GNUC__)
#define CR_MUST_CHECK __attribute__((warn_unused_result))
#else
#define CR_MUST_CHECK
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
