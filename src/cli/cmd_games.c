/* cmd_games.c — `croupier games`: the registry's games and variants. */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"

int cmd_games(int argc, char **argv)
{
    if (argc > 1) return cli_usage_error(argv[0], "unexpected argument '%s'", argv[1]);
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_def *def = cr_registry_get(i);
        printf("%s  %s\n", def->name, def->title ? def->title : "");
        for (int v = 0; v < def->n_variants; v++) {
            const cr_variant *var = &def->variants[v];
            char players[32];
            if (var->min_players == var->max_players)
                snprintf(players, sizeof players, "%d players", var->min_players);
            else
                snprintf(players, sizeof players, "%d-%d players", var->min_players,
                         var->max_players);
            printf("  %-12s %-12s %s%s\n", var->name, players, var->summary ? var->summary : "",
                   v == 0 ? " (default)" : "");
        }
        printf("  rules version %d\n", def->rules_version);
        if (def->n_options > 0) printf("  options (--option KEY=VALUE):\n");
        for (int k = 0; k < def->n_options; k++) {
            const cr_option_def *o = &def->options[k];
            char range[128];
            switch (o->type) {
            case CR_OPT_INT:
                snprintf(range, sizeof range, "%d..%d, default %d", (int)o->min, (int)o->max,
                         (int)o->def);
                break;
            case CR_OPT_SEAT:
                snprintf(range, sizeof range, "a seat, default %d", (int)o->def);
                break;
            case CR_OPT_BOOL:
                snprintf(range, sizeof range, "yes/no, default %s", o->def ? "yes" : "no");
                break;
            case CR_OPT_CHOICE:
                snprintf(range, sizeof range, "one of its choices, default %s", o->choices[o->def]);
                break;
            case CR_OPT_FILE: snprintf(range, sizeof range, "a file, default built-in"); break;
            }
            if (o->flags & CR_OPTF_SWITCH) { /* the commands take --KEY VALUE too */
                size_t n = strlen(range);
                snprintf(range + n, sizeof range - n, "; also --%s", o->key);
            }
            if (o->variant != NULL) /* given to another variant, it is refused */
                printf("    %-14s %s (%s; %s only)\n", o->key, o->help ? o->help : "", range,
                       o->variant);
            else
                printf("    %-14s %s (%s)\n", o->key, o->help ? o->help : "", range);
        }
    }
    return 0;
}
