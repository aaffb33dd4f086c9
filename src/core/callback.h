/* The guard around every call into user code that receives the system.
 * Internal.
 *
 * The headers promise that a callback may read the system and that every
 * call that would change it returns CDYN_ERR_BUSY, wherever the callback
 * was called from: a step, but also a query that evaluates a ground, a
 * projection onto a callback curve, a motion attached at the current
 * time. Steps mark themselves (in_step); these mark each callback. The
 * counter is, with the message, the one field a const query writes. */
#ifndef CDYN__CORE_CALLBACK_H
#define CDYN__CORE_CALLBACK_H

#include <stdint.h>

#include "core/system.h"

static inline void cdyn__callback_enter(const cdyn_system *sys)
{
    if (sys)
        ((cdyn_system *)(uintptr_t)sys)->in_callback++;
}

static inline void cdyn__callback_leave(const cdyn_system *sys)
{
    if (sys)
        ((cdyn_system *)(uintptr_t)sys)->in_callback--;
}

#endif /* CDYN__CORE_CALLBACK_H */
