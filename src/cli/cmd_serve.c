/* cmd_serve.c — `croupier serve`: parses the flags into an sv_config and
 * runs the server (src/server/server.c) until SIGTERM or SIGINT. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "commands.h"
#include "server/server.h"

const char cmd_serve_usage[] =
    "usage: croupier serve [options]\n"
    "\n"
    "Hosts every game of this croupier for browsers and other clients: HTTP + WebSocket,\n"
    "protocol in docs/protocol.md, operation in docs/server.md.  Stops cleanly on SIGTERM\n"
    "or SIGINT (Ctrl-C).\n"
    "\n"
    "options:\n"
    "  --listen HOST:PORT     where to listen (default 127.0.0.1:8080, loopback only;\n"
    "                         port 0 picks a free port, printed at start)\n"
    "  --db URL               the store: sqlite:PATH (default sqlite:croupier.db, created on\n"
    "                         first start) or postgres://USER@HOST/DB (when built with libpq)\n"
    "  --web DIR              the static browser client (default: web/ of the source tree\n"
    "                         when it exists; none: only the API and WebSocket are served)\n"
    "  --max-frame BYTES      largest client frame (default 16384); larger closes the socket\n"
    "  --max-msg-rate N       messages per second per connection, bursts of 2N (default 50)\n"
    "  --max-conns N          open connections at once (default 256)\n"
    "  --max-conns-per-addr N open WebSockets from one client address (default 32)\n"
    "  --handshake-timeout-ms N  the HTTP request head, WebSocket upgrade included, must\n"
    "                         arrive within N ms (default 10000)\n"
    "  --idle-timeout-ms N    a WebSocket silent for N ms is closed; it is pinged at N/2\n"
    "                         (default 60000)\n"
    "  --frame-timeout-ms N   a frame's bytes must arrive within N ms of its first\n"
    "                         (default 10000)\n"
    "  --max-outbox BYTES     messages waiting for a client that does not read them;\n"
    "                         past it the connection is closed (default 4194304)\n"
    "  --max-games N          running games at once (default 1000)\n"
    "  --max-bots N           bot seats in running games at once (default 2000)\n"
    "  --bot-threads N        worker threads playing bot seats (default 2)\n"
    "  --bot-max-iters N      largest ismcts iters= a seat may ask for (default 5000)\n"
    "  --bot-deadline-ms N    per-move deadline of bots (random move played when overrun)\n"
    "                         (default 2000)\n"
    "  --bot-memory-mb N      memory cap of one bot (its tree and scratch; default 64)\n"
    "  --webhooks on|off      allow per-game webhook URLs (default on)\n"
    "  --claim-interval-ms N  with a shared PostgreSQL store: how often this server takes over\n"
    "                         running games no server holds, e.g. those of a server that died\n"
    "                         (default 1000; 0: only at start; docs/server.md)\n"
    "  --quiet                log nothing but errors at start\n";

static volatile sig_atomic_t serve_stop;

static void serve_on_signal(int sig)
{
    (void)sig;
    serve_stop = 1;
}

int cmd_serve(int argc, char **argv)
{
    sv_config cfg;
    sv_config_defaults(&cfg);
    struct stat sb;
    if (stat(CR_SOURCE_DIR "/web/index.html", &sb) == 0) cfg.web = CR_SOURCE_DIR "/web";
    for (int i = 1; i < argc; i++) {
        const char *val;
        long x;
        int r;
        struct {
            const char *name;
            long lo, hi;
            int *dst;
        } ints[] = {
            {"--max-msg-rate", 1, 100000, &cfg.max_msg_rate},
            {"--max-conns", 1, 100000, &cfg.max_conns},
            {"--max-games", 1, 10000000, &cfg.max_games},
            {"--max-bots", 0, 10000000, &cfg.max_bots},
            {"--bot-threads", 1, 256, &cfg.bot_threads},
            {"--bot-max-iters", 1, 10000000, &cfg.bot_max_iters},
            {"--bot-deadline-ms", 1, 3600000, &cfg.bot_deadline_ms},
            {"--bot-memory-mb", 1, 65536, &cfg.bot_memory_mb},
            {"--claim-interval-ms", 0, 3600000, &cfg.claim_ms},
            {"--max-conns-per-addr", 1, 100000, &cfg.max_conns_per_addr},
            {"--handshake-timeout-ms", 100, 3600000, &cfg.handshake_ms},
            {"--idle-timeout-ms", 200, 86400000, &cfg.idle_ms},
            {"--frame-timeout-ms", 100, 3600000, &cfg.frame_ms},
        };
        int done = 0;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0] && !done; k++) {
            if ((r = cli_opt(argc, argv, &i, ints[k].name, &val))) {
                if (r < 0 || !cli_parse_int(val, ints[k].lo, ints[k].hi, &x))
                    return cli_usage_error("serve", "%s needs a number from %ld to %ld",
                                           ints[k].name, ints[k].lo, ints[k].hi);
                *ints[k].dst = (int)x;
                done = 1;
            }
        }
        if (done) continue;
        if ((r = cli_opt(argc, argv, &i, "--listen", &val))) {
            if (r < 0 || !strchr(val, ':'))
                return cli_usage_error("serve", "--listen needs HOST:PORT");
            cfg.listen = val;
        } else if ((r = cli_opt(argc, argv, &i, "--db", &val))) {
            if (r < 0) return 2;
            cfg.db = val;
        } else if ((r = cli_opt(argc, argv, &i, "--web", &val))) {
            if (r < 0) return 2;
            if (stat(val, &sb) != 0 || !S_ISDIR(sb.st_mode))
                return cli_error("--web %s is not a directory", val);
            cfg.web = val;
        } else if ((r = cli_opt(argc, argv, &i, "--max-frame", &val))) {
            if (r < 0 || !cli_parse_int(val, 256, 16 * 1024 * 1024, &x))
                return cli_usage_error("serve", "--max-frame needs a size from 256 to 16777216");
            cfg.max_frame = (size_t)x;
        } else if ((r = cli_opt(argc, argv, &i, "--max-outbox", &val))) {
            if (r < 0 || !cli_parse_int(val, 65536, 1024L * 1024 * 1024, &x))
                return cli_usage_error("serve",
                                       "--max-outbox needs a size from 65536 to 1073741824");
            cfg.max_outbox = (size_t)x;
        } else if ((r = cli_opt(argc, argv, &i, "--webhooks", &val))) {
            if (r < 0 || (strcmp(val, "on") != 0 && strcmp(val, "off") != 0))
                return cli_usage_error("serve", "--webhooks needs on or off");
            cfg.webhooks = strcmp(val, "on") == 0;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            cfg.quiet = 1;
        } else {
            return cli_usage_error("serve", "unknown option '%s'", argv[i]);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = serve_on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return sv_run(&cfg, &serve_stop);
}
