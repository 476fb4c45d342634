/* Unit packer: the morph targets as a tree (pack format 7).
 *
 * A target's deltas are taken from its parent's pose, not always from the
 * base: the frames of a walk lie near each other, so the delta to a
 * neighbour is smaller than the one to the base (fewer bytes for the
 * codec, more often sparse, BYTE instead of SHORT). A frame's weights are
 * then 1 on its target and the target's ancestors; the pose stays linear
 * in the weights, so every glTF viewer plays it, and on the integer grid
 * the sums are exact. The tree is Prim's minimum spanning tree from the
 * base, by what a delta costs, with paths of at most MK_PACK_TREE_DEPTH
 * targets: a blend of two frames weighs at most twice that many (8, what
 * older viewers blend at once). */
#include "pack_internal.h"

/* What the delta from grid values a to b costs: with --compress its sum of
 * magnitudes (the codec's bytes grow with them), otherwise the bytes of
 * the smaller of the dense and the sparse accessor (pack_mesh.c put_attr:
 * BYTE or SHORT components in 4 or 8 bytes a vertex; a sparse entry adds
 * its index and about 80 bytes of JSON). */
static uint64_t edge_cost(const int32_t *a, const int32_t *b, size_t n3, bool compress)
{
    uint64_t sum = 0;
    uint32_t big = 0, moved = 0;
    for (size_t v = 0; v < n3; v += 3) {
        uint32_t m = 0;
        for (int c = 0; c < 3; c++) {
            const int64_t d = (int64_t)b[v + c] - a[v + c];
            const uint32_t x = (uint32_t)(d < 0 ? -d : d);
            sum += x;
            m = x > m ? x : m;
        }
        big = m > big ? m : big;
        moved += m != 0;
    }
    if (compress)
        return sum;
    const uint64_t n = n3 / 3, elem = big <= 127 ? 4 : 8, index = n <= 256 ? 1 : n <= 65536 ? 2 : 4;
    const uint64_t dense = n * elem, sparse = moved * (index + elem - 1) + 80;
    return dense < sparse ? dense : sparse;
}

mk_status mk_pack_target_tree(const int32_t *grid, uint32_t targets, size_t n3, bool compress,
                              const mk_allocator *al, uint32_t *parent, uint32_t *order)
{
    /* per target: its cheapest link so far, whether it is in the tree, its depth */
    const size_t words = 2 * (size_t)targets;
    uint64_t *best = mk_alloc(al, (size_t)targets * sizeof *best);
    uint32_t *in = mk_alloc(al, words * sizeof *in);
    if (!best || !in) {
        mk_free(al, best, (size_t)targets * sizeof *best);
        mk_free(al, in, words * sizeof *in);
        return MK_ERR_OUT_OF_MEMORY;
    }
    uint32_t *depth = in + targets;
    const int32_t *base = grid;
    for (uint32_t t = 0; t < targets; t++) {
        in[t] = 0;
        parent[t] = MK_NONE;
        best[t] = edge_cost(base, grid + n3 * (t + 1), n3, compress);
    }
    for (uint32_t k = 0; k < targets; k++) {
        uint32_t pick = MK_NONE;
        for (uint32_t t = 0; t < targets; t++) /* ties: the lower target */
            if (!in[t] && (pick == MK_NONE || best[t] < best[pick]))
                pick = t;
        in[pick] = 1;
        depth[pick] = parent[pick] == MK_NONE ? 1 : depth[parent[pick]] + 1;
        order[k] = pick;
        if (depth[pick] == MK_PACK_TREE_DEPTH)
            continue;
        const int32_t *p = grid + n3 * (pick + 1);
        for (uint32_t t = 0; t < targets; t++) {
            if (in[t])
                continue;
            /* strictly cheaper: a tie keeps the nearer parent (the base first) */
            const uint64_t c = edge_cost(p, grid + n3 * (t + 1), n3, compress);
            if (c < best[t]) {
                best[t] = c;
                parent[t] = pick;
            }
        }
    }
    mk_free(al, best, (size_t)targets * sizeof *best);
    mk_free(al, in, words * sizeof *in);
    return MK_OK;
}
