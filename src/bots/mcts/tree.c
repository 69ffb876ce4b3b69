/* tree.c — the node arena of ISMCTS (see tree.h): a bump allocator over one
 * array, with children kept as linked lists.  Invariant: nodes[0] is the
 * root and every other used node is on exactly one parent's child list. */
#include <string.h>

#include "bots/mcts/tree.h"
#include "croupier/alloc.h"

int mcts_tree_init(mcts_tree *t, uint32_t cap)
{
    memset(t, 0, sizeof *t);
    if (cap < 1) cap = 1;
    t->nodes = cr_alloc((size_t)cap * sizeof *t->nodes);
    if (!t->nodes) return 0;
    t->cap = cap;
    mcts_tree_reset(t);
    return 1;
}

void mcts_tree_fini(mcts_tree *t)
{
    cr_free(t->nodes);
    memset(t, 0, sizeof *t);
}

void mcts_tree_reset(mcts_tree *t)
{
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->nodes[0].player = CR_CHANCE;
    t->used = 1;
    t->full = 0;
}

uint32_t mcts_tree_find(const mcts_tree *t, uint32_t parent, cr_action a, int player)
{
    for (uint32_t c = t->nodes[parent].child; c; c = t->nodes[c].sibling)
        if (t->nodes[c].action == a && t->nodes[c].player == player) return c;
    return 0;
}

uint32_t mcts_tree_add(mcts_tree *t, uint32_t parent, cr_action a, int player)
{
    if (t->used >= t->cap) {
        t->full = 1;
        return 0;
    }
    uint32_t i = t->used++;
    mcts_node *n = &t->nodes[i];
    n->action = a;
    n->player = player;
    n->child = 0;
    n->visits = 0;
    n->avail = 0;
    n->value = 0;
    n->sibling = t->nodes[parent].child;
    t->nodes[parent].child = i;
    return i;
}
