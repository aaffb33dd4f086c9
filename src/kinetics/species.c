/* The species store: names, concentrations, lookup by name. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kinetics/kinetics.h"

/* strlen up to @p max + 1 (strnlen is not C11). */
static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n <= max && s[n])
        n++;
    return n;
}

/* FNV-1a of a name: the hash of the name table (deterministic, no seed). */
static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot holding @p name, or the empty slot where it would go. */
static size_t find_slot(const cdyn__kin_species *sp, const size_t *slot, size_t n_slots,
                        const char *name, size_t len)
{
    size_t mask = n_slots - 1, i = (size_t)name_hash(name, len) & mask;
    while (slot[i]) {
        size_t s = slot[i] - 1;
        if (sp->name_len[s] == len && memcmp(sp->name[s], name, len) == 0)
            return i;
        i = (i + 1) & mask;
    }
    return i;
}

/* Index of the species called @p name, or SIZE_MAX. */
static size_t lookup(const cdyn__kin_species *sp, const char *name, size_t len)
{
    if (!sp->n_slots)
        return SIZE_MAX;
    size_t i = find_slot(sp, sp->slot, sp->n_slots, name, len);
    return sp->slot[i] ? sp->slot[i] - 1 : SIZE_MAX;
}

/* A table of twice as many slots holding every species; false when out of
 * memory (the old table kept). */
static bool grow_table(const cdyn_allocator *a, cdyn__kin_species *sp, size_t want)
{
    size_t n_slots = sp->n_slots ? sp->n_slots : 16;
    while (n_slots < 2 * want) {
        if (n_slots > SIZE_MAX / 4)
            return false;
        n_slots *= 2;
    }
    if (n_slots == sp->n_slots)
        return true;
    size_t *slot = cdyn__calloc_array(a, n_slots, sizeof *slot);
    if (!slot)
        return false;
    for (size_t s = 0; s < sp->n; s++)
        slot[find_slot(sp, slot, n_slots, sp->name[s], sp->name_len[s])] = s + 1;
    cdyn__free_array(a, sp->slot, sp->n_slots, sizeof *sp->slot);
    sp->slot = slot;
    sp->n_slots = n_slots;
    return true;
}

cdyn_status cdyn_kinetics_add_species(cdyn_kinetics *kin, const char *name, double concentration,
                                      size_t *index)
{
    static const char fn[] = "cdyn_kinetics_add_species";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    if (!name)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "name is NULL");
    size_t len = bounded_len(name, CDYN__KIN_MAX_NAME);
    if (len == 0)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "name is empty");
    if (len > CDYN__KIN_MAX_NAME)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "name is longer than %d bytes", CDYN__KIN_MAX_NAME);
    if (!isfinite(concentration) || concentration < 0)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "concentration of '%s' is %g: must be finite and >= 0", name,
                              concentration);
    cdyn__kin_species *sp = &kin->sp;
    if (lookup(sp, name, len) != SIZE_MAX)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "a species is already called '%s'", name);

    /* Room first, so that a failure changes nothing (arrays that grew keep
     * their contents). */
    const cdyn_allocator *a = &kin->alloc;
    size_t need = sp->n + 1;
    char *copy = NULL;
    if (!cdyn__kin_reserve(a, (void **)&sp->name, &sp->cap_name, need, sizeof *sp->name) ||
        !cdyn__kin_reserve(a, (void **)&sp->name_len, &sp->cap_len, need, sizeof *sp->name_len) ||
        !cdyn__kin_reserve(a, (void **)&sp->c, &sp->cap_c, need, sizeof *sp->c) ||
        !grow_table(a, sp, need) || !(copy = cdyn__alloc_array(a, len + 1, 1)))
        return cdyn__kin_fail(kin, CDYN_ERR_NO_MEMORY, fn, "out of memory for species '%s'",
                              name);
    memcpy(copy, name, len + 1);

    size_t s = sp->n;
    sp->name[s] = copy;
    sp->name_len[s] = len;
    sp->c[s] = concentration;
    sp->slot[find_slot(sp, sp->slot, sp->n_slots, copy, len)] = s + 1;
    sp->n = need;
    kin->serial++;
    if (index)
        *index = s;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_find_species(const cdyn_kinetics *kin, const char *name, size_t *index)
{
    static const char fn[] = "cdyn_kinetics_find_species";
    cdyn_status st;
    if ((st = cdyn__kin_check_ptr(kin, fn, name, "name")) ||
        (st = cdyn__kin_check_ptr(kin, fn, index, "index")))
        return st;
    size_t len = bounded_len(name, CDYN__KIN_MAX_NAME);
    size_t s = len > CDYN__KIN_MAX_NAME ? SIZE_MAX : lookup(&kin->sp, name, len);
    if (s == SIZE_MAX)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "no species is called '%.64s'",
                              name);
    *index = s;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_species_name(const cdyn_kinetics *kin, size_t species,
                                           const char **name)
{
    static const char fn[] = "cdyn_kinetics_get_species_name";
    cdyn_status st = cdyn__kin_check_ptr(kin, fn, name, "name");
    if (st)
        return st;
    if (species >= kin->sp.n)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "species %zu does not exist (%zu species)", species, kin->sp.n);
    *name = kin->sp.name[species];
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_species_count(const cdyn_kinetics *kin, size_t *count)
{
    cdyn_status st = cdyn__kin_check_ptr(kin, "cdyn_kinetics_get_species_count", count, "count");
    if (st)
        return st;
    *count = kin->sp.n;
    return CDYN_OK;
}

void cdyn__kin_species_free(cdyn_kinetics *kin)
{
    const cdyn_allocator *a = &kin->alloc;
    cdyn__kin_species *sp = &kin->sp;
    for (size_t s = 0; s < sp->n; s++)
        cdyn__free_array(a, sp->name[s], sp->name_len[s] + 1, 1);
    cdyn__free_array(a, sp->name, sp->cap_name, sizeof *sp->name);
    cdyn__free_array(a, sp->name_len, sp->cap_len, sizeof *sp->name_len);
    cdyn__free_array(a, sp->c, sp->cap_c, sizeof *sp->c);
    cdyn__free_array(a, sp->slot, sp->n_slots, sizeof *sp->slot);
    memset(sp, 0, sizeof *sp);
}
