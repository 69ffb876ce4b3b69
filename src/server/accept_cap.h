/* server/accept_cap.h — the per-address cap on connections, applied when
 * a connection is accepted (accept_cap.c says how and why there). */
#ifndef CR_SERVER_ACCEPT_CAP_H
#define CR_SERVER_ACCEPT_CAP_H

/* From now on, a connection accepted while `per_addr` connections from the
 * same client address are open is answered "429 Too Many Requests" and
 * closed before civetweb sees it.  0 turns the cap off (the default). */
void sv_accept_cap_set(int per_addr);

/* Connections refused by the cap since the start (GET /api/server: a
 * server whose cap refuses nothing under a flood from one address is not
 * calling this file's accept()). */
long sv_accept_cap_refused(void);

#endif
