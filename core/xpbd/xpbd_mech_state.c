/* xpbd_mech_state.c — an XPBD run of a .mech model read back in the
 * model's own coordinates (see xpbd_from_model.h). */
#include "xpbd/xpbd_from_model.h"

#include "rbda/elements.h"
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

/* World origin o, rotation R, angular velocity w and origin velocity vo of
 * body i (−1: the ground, at rest at the origin). */
static void frame(const mech_model *mm, const xpbd_data *d, int i, double o[3], double R[9], double w[3], double vo[3])
{
    if (i < 0) {
        memset(o, 0, 3 * sizeof *o);
        m3_identity(R);
        memset(w, 0, 3 * sizeof *w);
        memset(vo, 0, 3 * sizeof *vo);
        return;
    }
    double c[3], wc[3];
    memcpy(R, d->R + 9 * i, 9 * sizeof *R);
    m3_mulv(R, mm->bodies[i].com, c);
    m3_mulv(R, d->w + 3 * i, w);
    v3_cross(w, c, wc);
    for (int k = 0; k < 3; k++) {
        o[k] = d->p[3 * i + k] - c[k];
        vo[k] = d->v[3 * i + k] - wc[k];
    }
}

void xpbd_mech_joint_state(const mech_model *mm, const xpbd_data *d, double *q, double *qd)
{
    for (int i = 0; i < mm->nb; i++) {
        const mech_body *b = &mm->bodies[i];
        double o[3], R[9], w[3], vo[3], op[3], Rp[9], wp[3], vp[3];
        frame(mm, d, i, o, R, w, vo);
        frame(mm, d, b->parent, op, Rp, wp, vp);
        double *qi = q + b->qidx, *ui = qd + b->vidx;
        if (b->joint == MECH_JOINT_FLOATING) {
            rot_to_quat(R, qi);
            memcpy(qi + 4, o, sizeof o);
            m3_tmulv(R, w, ui);
            m3_tmulv(R, vo, ui + 3);
            continue;
        }
        if (b->joint == MECH_JOINT_FIXED) continue;
        if (b->joint == MECH_JOINT_SPHERICAL) { /* R = Rp rot R_J, w = wp + R qd */
            double Rt[9], RJ[9], wrel[3];
            m3_mul(Rp, b->rot, Rt);
            m3_tmul(Rt, R, RJ);
            rot_to_quat(RJ, qi);
            for (int k = 0; k < 3; k++) wrel[k] = w[k] - wp[k];
            m3_tmulv(R, wrel, ui);
            continue;
        }
        /* The joint axis in world coordinates, through the parent's tree frame. */
        double Rt[9], a[3], d0[3], dr[3], rel[3], wrel[3], vrel[3], wxd[3];
        m3_mul(Rp, b->rot, Rt);
        m3_mulv(Rt, b->axis, a);
        for (int k = 0; k < 3; k++) d0[k] = o[k] - op[k];
        v3_cross(wp, d0, wxd);
        for (int k = 0; k < 3; k++) {
            wrel[k] = w[k] - wp[k];
            vrel[k] = vo[k] - vp[k] - wxd[k];
        }
        if (b->joint == MECH_JOINT_PRISMATIC || b->joint == MECH_JOINT_CYLINDRICAL) {
            int c = b->joint == MECH_JOINT_CYLINDRICAL; /* the slide is the cylinder's second coordinate */
            m3_mulv(Rp, b->pos, dr);
            for (int k = 0; k < 3; k++) rel[k] = d0[k] - dr[k];
            qi[c] = v3_dot(a, rel);
            ui[c] = v3_dot(a, vrel);
            if (!c) continue;
        }
        /* Revolute: the angle that takes a vector u ⊥ axis of the tree frame
         * to the same vector of the body frame, about +axis. */
        double u0[3] = { 0, 0, 0 }, ub[3], u[3], ut[3], x[3];
        int k0 = fabs(b->axis[0]) <= fabs(b->axis[1]) && fabs(b->axis[0]) <= fabs(b->axis[2]) ? 0
               : fabs(b->axis[1]) <= fabs(b->axis[2])                                         ? 1
                                                                                              : 2;
        u0[k0] = 1.0;
        v3_cross(b->axis, u0, ub);
        m3_mulv(Rt, ub, ut);
        m3_mulv(R, ub, u);
        v3_cross(ut, u, x);
        qi[0] = atan2(v3_dot(a, x), v3_dot(ut, u));
        ui[0] = v3_dot(a, wrel);
    }
}

/* A joint's moment (lin 0) or force (lin 3) f, in world axes, on body i and
 * its reaction on the parent.  A force pair applied at the two CoMs
 * (r = p_body − p_parent apart) has the moment r × f, which the parent's
 * torque −r × f cancels. */
static void joint_pair(const mech_model *mm, const xpbd_data *d, int i, int lin, const double f[3], double *out)
{
    int parent = mm->bodies[i].parent;
    for (int k = 0; k < 3; k++) out[6 * i + lin + k] += f[k];
    if (parent < 0) return;
    for (int k = 0; k < 3; k++) out[6 * parent + lin + k] -= f[k];
    if (lin) {
        double r[3], rxf[3];
        for (int k = 0; k < 3; k++) r[k] = d->p[3 * i + k] - d->p[3 * parent + k];
        v3_cross(r, f, rxf);
        for (int k = 0; k < 3; k++) out[6 * parent + k] -= rxf[k];
    }
}

void xpbd_mech_forces(const mech_model *mm, const xpbd_data *d, const double *tau, const double *fext, double *out)
{
    memset(out, 0, 6 * (size_t)mm->nb * sizeof *out);
    for (int i = 0; i < mm->nb; i++) {
        const mech_body *b = &mm->bodies[i];
        double *fi = out + 6 * i;
        if (fext) {
            /* [moment about the base origin; force] → [torque about the CoM; force] */
            const double *f = fext + 6 * i;
            double pxf[3];
            v3_cross(d->p + 3 * i, f + 3, pxf);
            for (int k = 0; k < 3; k++) {
                fi[k] += f[k] - pxf[k];
                fi[3 + k] += f[3 + k];
            }
        }
        if (!tau || b->nv == 0 || b->joint == MECH_JOINT_FLOATING) continue;
        /* A joint force acts on the body along / about the world axis and
         * reacts on the parent. */
        double Rt[9], a[3], f[3];
        const double *t = tau + b->vidx;
        if (b->parent >= 0) m3_mul(d->R + 9 * b->parent, b->rot, Rt);
        else memcpy(Rt, b->rot, sizeof Rt);
        m3_mulv(Rt, b->axis, a);
        switch (b->joint) {
        case MECH_JOINT_SPHERICAL: /* a body-frame moment */
            m3_mulv(d->R + 9 * i, t, f);
            joint_pair(mm, d, i, 0, f, out);
            break;
        case MECH_JOINT_CYLINDRICAL:
            for (int k = 0; k < 3; k++) f[k] = t[0] * a[k];
            joint_pair(mm, d, i, 0, f, out);
            for (int k = 0; k < 3; k++) f[k] = t[1] * a[k];
            joint_pair(mm, d, i, 3, f, out);
            break;
        default:
            for (int k = 0; k < 3; k++) f[k] = t[0] * a[k];
            joint_pair(mm, d, i, b->joint == MECH_JOINT_PRISMATIC ? 3 : 0, f, out);
        }
    }
}

/* β of body b's tree joint's own row: the row about (revolute) or along (prismatic) its axis. */
static double *row_damping(const mech_model *mm, const xpbd_mech *x, xpbd_data *d, int b)
{
    return d->damping + 6 * x->body_joint[b] + (mm->bodies[b].joint == MECH_JOINT_REVOLUTE ? 5 : 2);
}

void xpbd_mech_joint_forces(const mech_model *mm, const xpbd_mech *x, xpbd_data *d, const double *act, double *q,
                            double *qd, double *tau, double *out)
{
    xpbd_mech_joint_state(mm, d, q, qd);
    memset(tau, 0, (size_t)mm->nv * sizeof *tau);
    memset(d->damping, 0, 6 * (size_t)x->m.njoint * sizeof *d->damping);
    mech_joint_forces(mm, q, qd, act, tau);
    for (int i = 0; i < mm->nrsda; i++) {
        const mech_rsda *r = &mm->rsdas[i];
        tau[mm->bodies[r->body].vidx] += r->c * qd[mm->bodies[r->body].vidx];
        *row_damping(mm, x, d, r->body) += r->c;
    }
    for (int i = 0; i < mm->nu; i++) {
        const mech_actuator *a = &mm->actuators[i];
        if (a->tendon >= 0) continue; /* its velocity gain stays explicit, in mech_joint_forces's force */
        int j = mm->bodies[a->body].vidx;
        double f = mech_actuator_force(a, act[a->act], q[mm->bodies[a->body].qidx], qd[j]);
        if (a->forcelimited && (f <= a->forcerange[0] || f >= a->forcerange[1])) continue;
        double c = -a->gear * a->gear * a->bias[2];
        tau[j] += c * qd[j];
        *row_damping(mm, x, d, a->body) += c;
    }
    xpbd_mech_forces(mm, d, tau, NULL, out);
}
