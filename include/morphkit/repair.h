/* morphkit/repair.h - vertex order: detect scrambled frames, recognise
 * renumbered ones, and repair both on frames in memory (assets layer).
 *
 * Frame blending needs every frame's vertices in the same order. Exporters
 * break that in two ways, and this module handles both:
 *
 *  - renumbered: the frame is the same mesh, but its vertices (and the face
 *    list's indices with them) are numbered differently. mk_vorder_match
 *    recovers the exact correspondence from connectivity alone: it matches a
 *    seed triangle, then walks across shared edges (a triangle's neighbour
 *    over edge a->b is the triangle holding b->a), so one seed fixes a whole
 *    connected piece. Positions only choose between seeds (symmetric meshes,
 *    identical disconnected pieces): the seed whose piece lands closest to
 *    a pose in the reference order wins.
 *  - scrambled: the face list is right but some `v` lines hold another
 *    vertex's position. mk_vorder_detect finds such frames, and
 *    mk_vorder_repair_frame moves the positions back.
 *
 * Detection rule (thresholds in brackets). Over the reference triangles'
 * unique edges, a frame f is compared with a comparator frame g by each
 * edge's log length ratio ln((L_f + eps) / (L_g + eps)) (eps = 5% of the
 * median edge length of the consensus), minus the median of that ratio over
 * all edges (so a frame exported at another scale is not a scramble; it is a
 * jump). A vertex's change is the median over its edges of that difference's
 * magnitude: a vertex put somewhere else breaks all of its edges, while its
 * correctly placed neighbours break only the one edge they share with it.
 * The comparators are the frames before and after f in play: the previous
 * and the next frame of its animation, and with next_frames the frame a
 * loop or a clip switch blends into (or from). At an animation's first or
 * last frame the consensus (each edge's median length over all frames, or
 * frame 0 in a unit of fewer than 3 frames) is a comparator too: a clip
 * that loops by default without being made to jumps at its loop.
 * A vertex is scrambled in frame f when its change exceeds ln 2 [0.693]
 * against every comparator: a wrong frame disagrees with both neighbours,
 * and a right frame agrees with at least one, so the fault is named on the
 * wrong frame only. This works from one swapped pair up to every vertex,
 * at any mesh size, and does not depend on how far the mesh moves.
 *
 * What it cannot see: a swap of two vertices that sit at the same place (or
 * within about the mesh's own stretching of each other: two neighbours of a
 * coarse mesh), a scramble present in most frames of a unit (it becomes the
 * consensus), and a frame whose edges legitimately halve or double in
 * length against both neighbouring frames at once (reported as a scramble).
 *
 * Repair of a scrambled frame: the suspects are the flagged vertices, the
 * vertices changed by over half the limit, and two rings of mesh
 * neighbours around them; their own positions in the frame are the
 * candidates, so a correct repair is exact (numbers are moved, never
 * recomputed). The prediction of the frame is the cubic through the frames
 * two and one steps before it and one and two after it in play (across a
 * loop or clip switch given by next_frames) where those are fault-free
 * (smooth motion), else interpolated from the nearest fault-free frames
 * before and after it (extrapolated from the two nearest at the end of an
 * animation that neither loops nor switches, or frame 0), moved and scaled
 * onto the frame's centroid and spread (both blind to the order). Up to
 * twelve tries of the kinds 1 to 7, then 8 and 9; the first that checks
 * out wins:
 *  1. each suspect's expectation is its prediction corrected by how its
 *     placed mesh neighbours differ from theirs; each takes the free
 *     candidate nearest to it, most distinct matches first, over a few
 *     rounds, in two passes (the second starts with every neighbour placed);
 *  2. the same with the unflagged suspects believed in place at first;
 *  3. the same with six rings;
 *  4. growing (for fast motion): the unflagged suspects believed in place,
 *     a suspect's expectation is where the rigid motion (rotation and
 *     uniform scale, from its placed 1-ring, or 2-ring when under 3 are
 *     placed, and the normal of its fan) of its neighbourhood takes it from
 *     the prediction; a match is taken only when distinct (nearest under
 *     half as far as the second; a third, or a fifth with no rigid fit),
 *     and each match lets its neighbours be predicted next; what is left
 *     takes the nearest free candidate (not tried when under half matched
 *     distinctly); up to five passes, each starting from the last one's
 *     placement, while it changes;
 *  5. growing from the shape of a real frame instead of the prediction
 *     (an interpolation of two far-apart poses distorts a patch): of the
 *     nearest real frames before and after it, the one whose positions lie
 *     nearer to the frame's (blind to the order: a held pose is far nearer
 *     to the frame after it than to the wind-up before it); then growing
 *     with nothing believed in place;
 *  6. with at most 400 suspects, one optimal assignment: every suspect's
 *     expectation (as in 5, from that real frame) matched to the
 *     candidates all at once, least sum of squared distances
 *     (Kuhn-Munkres, cubic in the suspects), then again with every
 *     neighbour placed where the last pass put it, up to five passes while
 *     it changes; with the unflagged suspects believed in place, then with
 *     nothing believed (greedy matching goes wrong where two suspects want
 *     the same place: a piece that turns fast);
 *  7. every vertex of the frame a suspect (a scramble of a few vertices
 *     each moved within about two edge lengths is only partly flagged),
 *     as in 2, as in 1, then (at most 400 vertices) as in 6;
 *  8. rigid pieces (a mesh of at most 4096 vertices, every one in a
 *     triangle, made of separate pieces that keep their shape, as a unit
 *     built of boxes): each piece's shape in the nearest real frame is
 *     found again among the frame's positions by a rigid motion (three of
 *     its vertices matched by their distances within 2e-5 of the frame's
 *     size, then every vertex landing on a position). A piece that fits
 *     several ways takes the fit whose centroid is clearly nearest (under
 *     half as far as any other place) to the piece's centroid interpolated
 *     between the real frames before and after (pieces alike), and there
 *     the one within 30 degrees of the turn interpolated between those
 *     frames and at least 30 degrees nearer than any other (a symmetric
 *     piece: a box fits its own shape four ways); otherwise not repaired.
 *     Pieces may not land on one position. Whatever the motion, as in the
 *     knight's walk scrambled whole;
 *  9. last, a reused pose: a frame whose positions are, bit for bit and as
 *     a whole (each position as many times), those of another frame the
 *     report does not name (the demo wing's Beat_1 is its Flap_1) is given
 *     that frame's order (info.twin names it). Last, because a piece turned
 *     by exactly its symmetry between two frames (a four-bladed propeller
 *     turned by a quarter) shares its positions with the earlier frame in
 *     another order: the tries above tell such turns apart from the frames
 *     around where they can, and this one cannot.
 * Candidates at the same position are interchangeable: a swap of equal
 * positions is exact and does not make a match less distinct. A result of
 * tries 1 to 7 is kept only when it checks out (of try 8: when no vertex
 * is over the detection limit): no vertex over the detection limit; every
 * moved vertex fits its edges better than before and within twice the
 * 95th percentile of the unmoved vertices' change (at least 0.2); no
 * triangle with a moved corner faces the other way than the rigid motion
 * of the unmoved vertices around it (the nearest rings holding 3, up to 4
 * rings) takes its facing in the real frame of try 5 (a mirrored piece
 * keeps its edge lengths), and a triangle with no unmoved vertex that
 * near (a separate piece moved whole) turns less than 72.5 degrees from
 * its facing in the prediction (a piece with a symmetry, a box with a
 * square section, fits its edges turned by a quarter too: only the
 * prediction tells the turns apart, so a whole piece that truly turns
 * further from the prediction is refused, and one whose symmetry turns
 * by less, a prism of 6 or more sides, can be given a turned numbering);
 * each suspect sits at the position of the repaired frame nearest to
 * where the rigid motion of its (now fully placed) neighbourhood from each
 * real neighbouring frame takes it
 * (distinctly so after growing), and so does every unsuspected vertex
 * within reach of a candidate position (a vertex left at another's place
 * close to its own passes edge lengths in fast motion); and at least half
 * the matches were distinct. Otherwise the frame is not repaired
 * (MK_ERR_MISMATCH), never guessed. Limits: a scramble of most or all
 * vertices of an animation's first or last frame in fast motion when
 * nothing blends into or out of it (next_frames NULL, a once clip: the
 * extrapolated prediction is too far off to seed the growth; a looping
 * wave of 6 frames a period is repaired at both ends, of 5 is not; a mesh
 * of rigid pieces is repaired there when its symmetric pieces turn less
 * than 30 degrees from the one real frame beside it), a swap of two
 * vertices within the local motion's error of each other, and regular
 * meshes moving by more than a cell per frame with nothing left in place
 * are refused. Cost: a 100k-vertex frame with 1% scrambled repairs in about
 * 0.35-0.5 s, with all of it scrambled in about 1.2 s (bench_vorder, one core);
 * frames that need the later tries, or are refused, cost a few times more.
 *
 * Everything here is reentrant and allocates through the given allocator
 * (NULL: malloc); the caller owns every buffer it passes. */
#ifndef MORPHKIT_REPAIR_H
#define MORPHKIT_REPAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/clip.h"
#include "morphkit/error.h"
#include "morphkit/unit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A unit's frames in memory, all in one vertex order. */
typedef struct mk_vorder_frames {
    uint32_t vertex_count;
    uint32_t frame_count;
    const float *const *positions; /* frame_count arrays of vertex_count float3 */
    uint32_t triangle_count;
    const uint32_t *triangles;     /* 3 per triangle, 0-based vertex indices */
    uint32_t animation_count;      /* 0: all frames are one animation */
    const uint32_t *animation_frames; /* animation_count frame counts, in frame order,
                                         summing to frame_count */
    const uint32_t *next_frames;   /* NULL, or frame_count entries: the frame each
                                      frame blends into in play (MK_NONE: none), so
                                      that an animation's last frame has its loop
                                      frame, or the first frame of the clip a once
                                      clip switches to, as its neighbour.
                                      mk_vorder_next_frames fills it from clips.
                                      NULL: the next frame of the same animation */
} mk_vorder_frames;

/* Fills next (frame_count entries) for mk_vorder_frames.next_frames from a
 * clip set over the same frames: each clip frame blends into the clip's
 * next one; a clip's last frame into its loop frame, or with once into the
 * first frame of its next clip (MK_NONE when it holds); frames in no clip
 * get MK_NONE. Where a frame is in several clips, the first clip decides.
 * MK_ERR_INVALID_ARGUMENT for NULL arguments or a clip frame out of
 * range. */
MK_API mk_status mk_vorder_next_frames(const mk_clip_set *clips, uint32_t frame_count,
                                       uint32_t *next, mk_error *err);

/* One scrambled frame. */
typedef struct mk_vorder_fault {
    uint32_t frame;
    uint32_t vertex_count; /* suspicious vertices */
    uint32_t *vertices;    /* vertex_count indices, ascending */
    float change;          /* the largest vertex change (log length ratio) */
} mk_vorder_fault;

typedef struct mk_vorder_report {
    uint32_t fault_count;
    mk_vorder_fault *faults; /* in frame order, one per scrambled frame */
    mk_allocator allocator;
} mk_vorder_report;

/* Finds scrambled frames by the rule above. *out is a new report (free with
 * mk_vorder_report_destroy), empty when nothing is wrong. Memory: about
 * 4 x (edges x frames) bytes. MK_ERR_INVALID_ARGUMENT for NULL arrays, an
 * index out of range or animation counts that do not sum to frame_count. */
MK_API mk_status mk_vorder_detect(const mk_vorder_frames *frames, const mk_allocator *allocator,
                                  mk_vorder_report **out, mk_error *err);
MK_API void mk_vorder_report_destroy(mk_vorder_report *report);

typedef struct mk_vorder_repair_info {
    uint32_t suspect_count; /* vertices considered (the fault's) */
    uint32_t moved_count;   /* vertices that received another position */
    float confidence;       /* share of suspects whose match was distinct:
                               nearest candidate under half as far as the next
                               (at another position) */
    uint32_t remaining;     /* vertices still scrambled after the repair */
    uint32_t twin;          /* the frame whose positions, in another order, these
                               are (its order was taken; confidence 1), or MK_NONE */
} mk_vorder_repair_info;

/* Repairs report->faults[fault]'s frame: writes vertex_count float3 (the
 * frame with its positions moved back) to out. Frames named in report are
 * not used as predictions. MK_ERR_MISMATCH when the repaired frame still
 * shows a scramble (out then holds the attempt; info says how far it got);
 * MK_ERR_INVALID_ARGUMENT on misuse. info may be NULL. */
MK_API mk_status mk_vorder_repair_frame(const mk_vorder_frames *frames,
                                        const mk_vorder_report *report, uint32_t fault,
                                        const mk_allocator *allocator, float *out,
                                        mk_vorder_repair_info *info, mk_error *err);

/* A triangle mesh for matching: positions in its own numbering. */
typedef struct mk_vorder_mesh {
    uint32_t vertex_count;
    const float *positions; /* vertex_count float3 */
    uint32_t triangle_count;
    const uint32_t *triangles; /* 3 per triangle */
    const float *corner_texcoords; /* optional: 3 x triangle_count float2, the texture
                                      coordinate at each corner; NULL: none */
} mk_vorder_mesh;

/* Is frame the reference mesh numbered differently? On MK_OK,
 * vertex_map[i] (reference.vertex_count entries) is the frame's vertex for
 * reference vertex i, and corner_map (3 x triangle_count entries, may be
 * NULL) the frame corner (3 x triangle + corner) for each reference corner.
 * reference.positions is a pose in the reference numbering close to the
 * frame's (a neighbouring frame); it only breaks ties between symmetric
 * matches. When both meshes give corner_texcoords, texture coordinates
 * break ties first (they do not move between frames, so two identical
 * pieces far apart in the pose, such as a character's feet mid-stride, are
 * still told apart when their UVs differ). Triangles must keep their winding (a corner rotation is fine, a
 * flipped triangle is another mesh). `v` entries that no triangle uses are
 * paired in index order. MK_ERR_MISMATCH when the connectivity differs
 * (the message says where), MK_ERR_INVALID_ARGUMENT on misuse. Expected
 * cost O(triangles) per connected piece tried as a seed (16 at most). */
MK_API mk_status mk_vorder_match(const mk_vorder_mesh *reference, const mk_vorder_mesh *frame,
                                 const mk_allocator *allocator, uint32_t *vertex_map,
                                 uint32_t *corner_map, mk_error *err);


/* ---- unit folders ---------------------------------------------------------
 * mk_unit_repair_plan reads a unit folder (see morphkit/unit.h) and works
 * out, without writing anything, how to put every frame in the first
 * frame's vertex order and face list:
 *  - a frame whose face list is the first frame's (corner rotations and
 *    flipped quad diagonals allowed) keeps its order;
 *  - a renumbered frame is matched with mk_vorder_match (the pose hint is
 *    the nearest earlier frame already in order) and rewritten;
 *  - then mk_vorder_detect runs over all frames in order, and each
 *    scrambled frame is repaired with mk_vorder_repair_frame; the frames
 *    loops and clip switches blend into come from the folder's
 *    animation.cfg (read leniently: a line with an error is skipped; a
 *    config that cannot be read at all leaves the animations alone).
 * A rewritten frame's text follows the first frame's file line by line:
 * its `v` lines carry the frame's positions (printed with 9 significant
 * digits, which read back to the same floats), its `vn` lines are the
 * frame's own normals (at the first frame's first `vn` line), its faces are
 * the first frame's faces with the first frame's `vt` indices and the
 * frame's own `vn` index at each corner, and every other line (comments,
 * `o`, `g`, `s`, `usemtl`, `mtllib`) is the first frame's. A frame that
 * cannot be repaired confidently is left as it is and says why. */

typedef struct mk_unit_frame_repair {
    bool renumbered;      /* put back in the first frame's numbering */
    bool unscrambled;     /* positions moved back to their vertices */
    bool failed;          /* cannot be repaired: the file stays as it is */
    uint32_t moved_count; /* unscrambled: vertices that got another position */
    float confidence;     /* unscrambled: as mk_vorder_repair_info */
    uint32_t twin;        /* unscrambled: as mk_vorder_repair_info (MK_NONE: none) */
    char *text;           /* the new OBJ text, or NULL when the file stays */
    size_t text_size;
    char message[MK_ERROR_MESSAGE_MAX]; /* failed: why; otherwise "" */
} mk_unit_frame_repair;

typedef struct mk_unit_repair {
    mk_unit_files *files;          /* the folder's frames */
    mk_unit_frame_repair *frames;  /* files->frame_count entries */
    uint32_t changed_count;        /* frames with new text */
    uint32_t failed_count;
    uint32_t vertex_count;         /* the first frame's `v` count */
    mk_allocator allocator;
} mk_unit_repair;

/* Plans the repair of the unit folder dir, reading it through
 * options->files (NULL options or files: the disk; see morphkit/file.h).
 * Fails (MK_ERR_IO, MK_ERR_PARSE, MK_ERR_NOT_FOUND, ...) only when the folder
 * or a frame cannot be read; frames that cannot be repaired are reported in
 * the plan. Free *out with mk_unit_repair_destroy. */
MK_API mk_status mk_unit_repair_plan(const char *dir, const mk_unit_options *options,
                                     const mk_allocator *allocator, mk_unit_repair **out,
                                     mk_error *err);
MK_API void mk_unit_repair_destroy(mk_unit_repair *repair);

#ifdef __cplusplus
}
#endif

#endif
