/* tree.h — the ISMCTS tree arena (src/bots/mcts/).
 *
 * All nodes of one search live in one array allocated when the bot is
 * created and reused by every search (Pachi uct/tree.c): no malloc per node.
 * A node is reached by an action from its parent; children form a singly
 * linked list through `sibling`.  Index 0 is the root; index 0 also means
 * "none" in child/sibling links (the root is nobody's child).  When the
 * arena is full, mcts_tree_add returns 0 and the search stops expanding:
 * it keeps selecting and backing up through the nodes it already has.
 */
#ifndef CROUPIER_MCTS_TREE_H
#define CROUPIER_MCTS_TREE_H

#include <stdint.h>

#include "croupier/game.h"

#if defined(__GNUC__)
#define MCTS_HIDDEN __attribute__((visibility("hidden")))
#else
#define MCTS_HIDDEN
#endif

typedef struct mcts_node {
    cr_action action; /* action from the parent */
    int32_t player;   /* seat that chose `action`, or CR_CHANCE */
    uint32_t child;   /* first child, 0 = none */
    uint32_t sibling; /* next sibling, 0 = none */
    uint32_t visits;
    uint32_t avail; /* times the node's action was legal when its parent was selected */
    double value;   /* sum of `player`'s returns over visits */
} mcts_node;

typedef struct mcts_tree {
    mcts_node *nodes; /* owned: cap entries */
    uint32_t cap, used;
    int full; /* an add failed during this search */
} mcts_tree;

/* Allocates room for cap nodes (cap >= 1); 0 on out of memory. */
MCTS_HIDDEN int mcts_tree_init(mcts_tree *t, uint32_t cap);
MCTS_HIDDEN void mcts_tree_fini(mcts_tree *t);
/* Empties the tree and makes a fresh root. */
MCTS_HIDDEN void mcts_tree_reset(mcts_tree *t);
/* The child of `parent` reached by action a of seat `player`, or 0. */
MCTS_HIDDEN uint32_t mcts_tree_find(const mcts_tree *t, uint32_t parent, cr_action a, int player);
/* Adds a child; returns its index, or 0 (and sets full) when the arena is full. */
MCTS_HIDDEN uint32_t mcts_tree_add(mcts_tree *t, uint32_t parent, cr_action a, int player);

#endif
