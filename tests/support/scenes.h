/* Scenes that hold every kind of object a snapshot saves, for the snapshot
 * suites and the loader's fuzz seeds: a spring net, a rod chain, particles
 * on shapes, rigid bodies on grounds with friction, pair potentials, a
 * driven scene (kinematic particles, moving anchors, schedules,
 * time-dependent callbacks, a conveyor), a fluid in a periodic box with a
 * neighbour list, exclusions and every pair kind, and that fluid under the
 * Langevin thermostat. Callbacks carry tags
 * that ts_scene_resolve maps back to their functions. Public API only. */
#ifndef CDYN_TEST_SCENES_H
#define CDYN_TEST_SCENES_H

#include <stddef.h>

#include <cdyn/cdyn.h>

#define TS_WORLD_MAX 64

/* A built scene: the system and the handles a test compares through. */
typedef struct ts_world {
    cdyn_system *sys;
    int dim;
    size_t n_particles, n_constraints;
    cdyn_particle particles[TS_WORLD_MAX];
    cdyn_constraint constraints[TS_WORLD_MAX];
    cdyn_particle held[TS_WORLD_MAX]; /* a particle each constraint holds */
    cdyn_particle removed;            /* a particle removed while building (stale) */
    cdyn_rigid removed_body;          /* likewise a rigid body, or 0 */
} ts_world;

typedef struct ts_scene {
    const char *name;
    int dim;
    void (*build)(ts_world *w);
} ts_scene;

extern const ts_scene ts_scene_springs, ts_scene_chain, ts_scene_coaster, ts_scene_rigid,
    ts_scene_pairs, ts_scene_driven, ts_scene_fluid, ts_scene_langevin;

/* Every scene, for loops. */
#define TS_N_SCENES 8
extern const ts_scene *const ts_scenes[TS_N_SCENES];

/* Builds @p scene into a new system with @p integrator and @p solver;
 * aborts the program on failure (a broken test fixture). */
void ts_scene_build(const ts_scene *scene, ts_world *w, cdyn_integrator integrator,
                    cdyn_constraint_solver solver);

/* As ts_scene_build, in a system with the allocator @p alloc. */
void ts_scene_build_with(const ts_scene *scene, ts_world *w, cdyn_integrator integrator,
                         cdyn_constraint_solver solver, const cdyn_allocator *alloc);

void ts_scene_free(ts_world *w);

/* The resolver of the scenes' callback tags (user pointer unused). */
int ts_scene_resolve(cdyn_callback_kind kind, uint64_t tag, cdyn_callback_binding *out,
                     void *user);

#endif
