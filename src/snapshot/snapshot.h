/* Snapshots of a system (include/cdyn/snapshot.h): the state of a save and
 * of a load, and the sections, one per store, each with its writer and
 * its reader. Internal; the format is in docs/snapshots.md.
 *
 * A snapshot is a header, the sections in a fixed order and a checksum.
 * Each section is written by one function from the store it describes and
 * read back by one function that rebuilds that store in the new system,
 * checking every value as it goes (a reader never trusts a count, an index
 * or a flag it has not checked). Sections are read in order, so a section
 * may check its references against the sections before it; the state
 * derived from several stores (the constraint topology, the projection's
 * held factorization) is rebuilt by the last sections, once every store
 * is loaded. */
#ifndef CDYN__SNAPSHOT_SNAPSHOT_H
#define CDYN__SNAPSHOT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/snapshot.h"
#include "core/handle.h"
#include "snapshot/wire.h"

/* The format written, and the oldest one read. */
#define CDYN__SNAPSHOT_VERSION 1u

/* A save in progress (also its sizing pass). */
typedef struct cdyn__save {
    cdyn__wout w;
    const cdyn_system *sys;
    /* A clone keeps each callback's functions and user pointer, in the
     * order of the snapshot: counted in the sizing pass, stored in the
     * writing pass when @c bind is not NULL. */
    cdyn_callback_binding *bind;
    size_t n_bind;
} cdyn__save;

/* A load in progress. Failures go through the reader (the first one wins,
 * with its offset and message); @c status tells what kind of failure it
 * was: CDYN_ERR_FORMAT unless set otherwise. */
typedef struct cdyn__load {
    cdyn__win r;
    size_t size;      /* of the whole snapshot */
    cdyn_system *sys; /* being built; destroyed on failure */
    uint32_t version;
    cdyn_callback_resolve_fn resolve;
    void *resolve_user;
    const cdyn_callback_binding *bind; /* a clone's callbacks, or NULL */
    size_t n_bind, next_bind;
    cdyn_status status;
    cdyn_callback_kind miss_kind;
    uint64_t miss_tag;
    /* Read by the sections, checked at the end. */
    bool generalized; /* the particles section holds u, ud */
    bool jacobian;    /* the multipliers section held the constraint Jacobian */
} cdyn__load;

/* Fails the load with @p status (CDYN_ERR_NO_MEMORY, CDYN_ERR_UNRESOLVED)
 * and a message; returns false. */
bool cdyn__load_fail(cdyn__load *L, cdyn_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Fails the load with CDYN_ERR_NO_MEMORY naming @p what. */
bool cdyn__load_oom(cdyn__load *L, const char *what);

/* Whether the load is still going. */
static inline bool cdyn__load_ok(const cdyn__load *L)
{
    return !L->r.failed;
}

/* --- callbacks (snapshot/callbacks.c) ------------------------------------ */

/* Writes @p tag for a callback of @p kind whose functions and user pointer
 * are @p b (kept for a clone). */
void cdyn__save_callback(cdyn__save *S, cdyn_callback_kind kind, uint64_t tag,
                         const cdyn_callback_binding *b);

/* Reads a tag and resolves it into *b: the resolver's (or the clone's)
 * functions, the one of @p kind not NULL, and force_jacobian too when
 * @p need_jacobian. *tag receives the tag. false (the load failed with
 * CDYN_ERR_UNRESOLVED, or the reader) otherwise. */
bool cdyn__load_callback(cdyn__load *L, cdyn_callback_kind kind, bool need_jacobian,
                         cdyn_callback_binding *b, uint64_t *tag);

/* --- slot pools (snapshot/slots.c) --------------------------------------- */

/* Writes a pool: count, live, generations and live flags, free list. */
void cdyn__save_slots(cdyn__save *S, const cdyn__slots *s);

/* Reads a pool into the empty @p s, growing it and the owner's @p n
 * arrays (as cdyn__slots_grow) to its count, after checking that the
 * section holds at least @p min_bytes per live object. The live flags are
 * kept aside in @p *alive (allocated, count bytes, which the caller frees
 * with cdyn__load_free_alive; nothing is left allocated on failure): the
 * pool's own flags stay clear until the
 * caller has rebuilt each object and calls cdyn__slots_revive, so that a
 * failure part way destroys only whole objects. */
bool cdyn__load_slots(cdyn__load *L, cdyn__slots *s, size_t n, void **const arrays[],
                      const size_t sizes[], size_t min_bytes, uint8_t **alive,
                      const char *what);

/* Marks slot @p i of @p s live again (its object is whole). */
void cdyn__slots_revive(cdyn__slots *s, uint32_t i);

void cdyn__load_free_alive(cdyn__load *L, uint8_t *alive, uint32_t count);

/* --- shared pieces (snapshot/motion.c, snapshot/shapes.c) ---------------- */

struct cdyn__motion;
struct cdyn__schedule;
struct cdyn__carrier;
struct cdyn__curve;
struct cdyn__surface;
struct cdyn__heightfield;

void cdyn__save_motion(cdyn__save *S, const struct cdyn__motion *m);
bool cdyn__load_motion(cdyn__load *L, struct cdyn__motion *m);
void cdyn__save_schedule(cdyn__save *S, const struct cdyn__schedule *s);
bool cdyn__load_schedule(cdyn__load *L, struct cdyn__schedule *s);
void cdyn__save_carrier(cdyn__save *S, const struct cdyn__carrier *c);
bool cdyn__load_carrier(cdyn__load *L, struct cdyn__carrier *c);

/* Shapes own arrays: a load that fails leaves nothing allocated in *c. */
void cdyn__save_curve(cdyn__save *S, const struct cdyn__curve *c);
bool cdyn__load_curve(cdyn__load *L, struct cdyn__curve *c);
void cdyn__save_surface(cdyn__save *S, const struct cdyn__surface *s);
bool cdyn__load_surface(cdyn__load *L, struct cdyn__surface *s);
void cdyn__save_heightfield(cdyn__save *S, const struct cdyn__heightfield *h);
bool cdyn__load_heightfield(cdyn__load *L, struct cdyn__heightfield *h);

/* A particle's record on a shape (snapshot/params.c): the load's is for
 * the particle of slot @p slot on a shape of @p k coordinates, NULL after
 * a failure (nothing left allocated). */
struct cdyn__param;
void cdyn__save_param(cdyn__save *S, const struct cdyn__param *p);
struct cdyn__param *cdyn__load_param(cdyn__load *L, int k, uint32_t slot);

/* Pair generators in the forces section (snapshot/pairs.c), a pair set's
 * neighbour list in them (snapshot/neighbors.c). A failed load of a
 * generator leaves nothing allocated; a failed load of a list leaves what
 * it allocated in the set, freed with it. */
struct cdyn__force;
struct cdyn__pair;
void cdyn__save_pair(cdyn__save *S, const struct cdyn__force *g);
bool cdyn__load_pair(cdyn__load *L, struct cdyn__force *g);
void cdyn__save_neighbors(cdyn__save *S, const struct cdyn__pair *p);
bool cdyn__load_neighbors(cdyn__load *L, struct cdyn__pair *p);

/* --- the sections ----------------------------------------------------------- */

typedef struct cdyn__section {
    uint32_t id;
    const char *name;
    void (*save)(cdyn__save *S);
    bool (*load)(cdyn__load *L);
} cdyn__section;

/* The sections in the order of the format (snapshot/snapshot.c). */
extern const cdyn__section cdyn__sections[];
extern const size_t cdyn__n_sections;

void cdyn__save_system(cdyn__save *S);
bool cdyn__load_system(cdyn__load *L);
void cdyn__save_particles(cdyn__save *S);
bool cdyn__load_particles(cdyn__load *L);
void cdyn__save_integrators(cdyn__save *S);
bool cdyn__load_integrators(cdyn__load *L);
void cdyn__save_forces(cdyn__save *S);
bool cdyn__load_forces(cdyn__load *L);
void cdyn__save_constraints(cdyn__save *S);
bool cdyn__load_constraints(cdyn__load *L);
void cdyn__save_grounds(cdyn__save *S);
bool cdyn__load_grounds(cdyn__load *L);
void cdyn__save_rigids(cdyn__save *S);
bool cdyn__load_rigids(cdyn__load *L);
void cdyn__save_kinematics(cdyn__save *S);
bool cdyn__load_kinematics(cdyn__load *L);
void cdyn__save_multipliers(cdyn__save *S);
bool cdyn__load_multipliers(cdyn__load *L);
void cdyn__save_projection(cdyn__save *S);
bool cdyn__load_projection(cdyn__load *L);
void cdyn__save_box(cdyn__save *S);
bool cdyn__load_box(cdyn__load *L);
void cdyn__save_thermostat(cdyn__save *S);
bool cdyn__load_thermostat(cdyn__load *L);
void cdyn__save_kept_forces(cdyn__save *S);
bool cdyn__load_kept_forces(cdyn__load *L);

#endif /* CDYN__SNAPSHOT_SNAPSHOT_H */
