/* server/accept_cap.c — the per-address cap (accept_cap.h).
 *
 * Where: civetweb gives a connection a worker thread, one of a fixed
 * number, from the moment it is accepted; it tells the program nothing
 * about the connection until its whole request head has arrived (1.15
 * calls init_connection before it has set the request's address).  A
 * client that opens many sockets and sends their heads a byte at a time
 * (slowloris) would hold every worker with no callback ever seeing it.  So
 * the cap is applied at accept(): this file defines accept(), which the
 * dynamic linker then binds civetweb's calls to (an executable's own
 * definition comes first in symbol lookup; the accept4() it calls is
 * libc's).  With the cap off it only forwards the call.
 *
 * How it counts without a callback at close: it remembers, by descriptor,
 * the peer and local address of each connection it accepted.  A remembered
 * connection is still open when that descriptor still is the same TCP
 * connection (getpeername/getsockname give the same pair; a closed or
 * reused descriptor does not).  Counting the open connections of one
 * address asks the kernel about that address's remembered descriptors
 * only, at most the cap of them plus the closed ones it then forgets. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/accept_cap.h"

typedef struct cap_conn {
    struct sockaddr_storage peer; /* as accept() gave it */
    socklen_t peer_len;
    struct sockaddr_storage self;
    socklen_t self_len;
    int used;
} cap_conn;

static pthread_mutex_t cap_mu = PTHREAD_MUTEX_INITIALIZER;
static int cap_per_addr;    /* 0: off */
static cap_conn *cap_by_fd; /* indexed by descriptor */
static int cap_n;           /* entries allocated */
static long cap_refused;    /* under cap_mu */

/* The client address of a socket address (its port left out). */
static int cap_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family) return 0;
    if (a->ss_family == AF_INET)
        return memcmp(&((const struct sockaddr_in *)a)->sin_addr,
                      &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr)) == 0;
    if (a->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
    return 0;
}

/* Whether descriptor fd is still the connection remembered for it. */
static int cap_still_open(int fd, const cap_conn *c)
{
    struct sockaddr_storage p, s;
    socklen_t pl = sizeof p, sl = sizeof s;
    if (getpeername(fd, (struct sockaddr *)&p, &pl) != 0) return 0;
    if (getsockname(fd, (struct sockaddr *)&s, &sl) != 0) return 0;
    return pl == c->peer_len && sl == c->self_len && memcmp(&p, &c->peer, pl) == 0 &&
           memcmp(&s, &c->self, sl) == 0;
}

/* Decides on the connection just accepted as fd (under cap_mu): 1 keep. */
static int cap_admit(int fd, const struct sockaddr_storage *peer, socklen_t peer_len)
{
    if (fd >= cap_n) {
        int n = cap_n ? cap_n : 1024;
        while (n <= fd) n *= 2;
        cap_conn *p = realloc(cap_by_fd, sizeof *p * (size_t)n);
        if (!p) return 1; /* cannot remember it: not counted, not refused */
        memset(p + cap_n, 0, sizeof *p * (size_t)(n - cap_n));
        cap_by_fd = p;
        cap_n = n;
    }
    cap_by_fd[fd].used = 0; /* whatever fd was before, it is this connection now */
    int open = 0;
    for (int i = 0; i < cap_n; i++) {
        cap_conn *c = &cap_by_fd[i];
        if (!c->used || !cap_same_host(&c->peer, peer)) continue;
        if (cap_still_open(i, c))
            open++;
        else
            c->used = 0;
    }
    if (open >= cap_per_addr) return 0;
    cap_conn *c = &cap_by_fd[fd];
    memcpy(&c->peer, peer, peer_len);
    c->peer_len = peer_len;
    c->self_len = sizeof c->self;
    if (getsockname(fd, (struct sockaddr *)&c->self, &c->self_len) != 0) return 1;
    c->used = 1;
    return 1;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    struct sockaddr_storage peer;
    socklen_t pl = sizeof peer;
    int s = accept4(fd, (struct sockaddr *)&peer, &pl, 0);
    if (s < 0) return s;
    if (addr && len) {
        memcpy(addr, &peer, *len < pl ? *len : pl);
        *len = pl;
    }
    pthread_mutex_lock(&cap_mu);
    int keep = cap_per_addr <= 0 || (peer.ss_family != AF_INET && peer.ss_family != AF_INET6) ||
               cap_admit(s, &peer, pl);
    if (!keep) cap_refused++;
    pthread_mutex_unlock(&cap_mu);
    if (keep) return s;
    static const char busy[] = "HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\n"
                               "Content-Length: 0\r\nRetry-After: 5\r\n\r\n";
    if (send(s, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
        /* the client is gone already: nothing to tell it */
    }
    close(s);
    errno = EAGAIN; /* civetweb's listener is non-blocking: it polls again */
    return -1;
}

void sv_accept_cap_set(int per_addr)
{
    pthread_mutex_lock(&cap_mu);
    cap_per_addr = per_addr;
    pthread_mutex_unlock(&cap_mu);
}

long sv_accept_cap_refused(void)
{
    pthread_mutex_lock(&cap_mu);
    long n = cap_refused;
    pthread_mutex_unlock(&cap_mu);
    return n;
}
