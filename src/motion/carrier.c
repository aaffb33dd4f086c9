/* Carriers: a held transform with a motion on top (motion/motion.h). */
#include "motion/motion.h"

#include <string.h>

#include "core/vec.h"

void cdyn__carrier_init(cdyn__carrier *c)
{
    memset(c, 0, sizeof *c);
    c->rot[0] = c->rot[4] = c->rot[8] = 1.0;
}

cdyn_status cdyn__carrier_frame(const cdyn_system *sys, const cdyn__carrier *c, double t,
                                cdyn__frame *f)
{
    cdyn__frame m;
    if (c->moving) {
        cdyn_status st = cdyn__motion_frame(sys, &c->motion, t, &m);
        if (st)
            return st;
    } else {
        cdyn__frame_identity(&m);
    }
    /* x = M(H(y)): rot = rot_M rot_H, shift = rot_M shift_H + shift_M. */
    *f = m;
    cdyn__m3_mul(m.rot, c->rot, f->rot);
    cdyn__m3_apply(m.rot, c->shift, f->shift);
    for (int k = 0; k < 3; k++)
        f->shift[k] += m.shift[k];
    f->rotates = m.rotates || c->held;
    return CDYN_OK;
}

cdyn_status cdyn__carrier_attach(const cdyn_system *sys, cdyn__carrier *c,
                                 const cdyn_motion_desc *desc, int dim, double t_now)
{
    cdyn__frame now;
    cdyn__motion m;
    cdyn_status st = cdyn__carrier_frame(sys, c, t_now, &now);
    if (st || (desc && (st = cdyn__motion_attach(sys, &m, desc, dim, t_now))))
        return st;
    memcpy(c->rot, now.rot, sizeof c->rot);
    memcpy(c->shift, now.shift, sizeof c->shift);
    bool identity = c->shift[0] == 0 && c->shift[1] == 0 && c->shift[2] == 0;
    for (int k = 0; k < 9; k++)
        identity = identity && c->rot[k] == (k % 4 == 0 ? 1.0 : 0.0);
    c->held = !identity;
    c->moving = desc != NULL;
    if (desc)
        c->motion = m;
    return CDYN_OK;
}
