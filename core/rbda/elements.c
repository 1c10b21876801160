/* elements.c — force elements (tsda, rsda), observation and name lookup in
 * the dense reference.  See elements.h. */
#include "rbda/dense.h"
#include "rbda/elements.h"

#include <math.h>
#include <string.h>

#include "spatial/spatial.h"

/* World position x and velocity xd of a POI (base POIs are fixed). */
static void poi_state(const mech_model *m, const dense_ws *ws, int i, double x[3], double xd[3])
{
    const mech_poi *pt = &m->pois[i];
    if (pt->body < 0) {
        memcpy(x, pt->pos, 3 * sizeof *x);
        xd[0] = xd[1] = xd[2] = 0;
        return;
    }
    /* 0_X_b = [R 0; (p x) R, R] (the inverse of eq. 2.24's iX0): x = p + R pos */
    const double *X = ws->Xw[pt->body], *v = ws->vw[pt->body];
    double R[9], pxR[9], Rt[9], px[9], Rpos[3], w[3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            R[3 * r + c] = X[6 * r + c];
            pxR[3 * r + c] = X[6 * (3 + r) + c];
        }
    m3_transpose(R, Rt);
    m3_mul(pxR, Rt, px);
    m3_mulv(R, pt->pos, Rpos);
    x[0] = px[7] + Rpos[0];
    x[1] = px[2] + Rpos[1];
    x[2] = px[3] + Rpos[2];
    v3_cross(v, x, w);
    for (int k = 0; k < 3; k++) xd[k] = v[3 + k] + w[k];
}

/* Length, unit direction a -> b and rate of a tsda (ws kinematics current). */
static double tsda_state(const mech_model *m, const dense_ws *ws, const mech_tsda *t, double xa[3], double xb[3],
                         double u[3], double *ldot)
{
    double va[3], vb[3], d[3];
    poi_state(m, ws, t->poi_a, xa, va);
    poi_state(m, ws, t->poi_b, xb, vb);
    for (int k = 0; k < 3; k++) d[k] = xb[k] - xa[k];
    double l = v3_norm(d);
    for (int k = 0; k < 3; k++) u[k] = l > 0 ? d[k] / l : 0; /* coincident anchors: no direction */
    for (int k = 0; k < 3; k++) d[k] = vb[k] - va[k];
    *ldot = v3_dot(u, d);
    return l;
}

/* tau_e += J_b^T F for a base-coordinate spatial force F on body b. */
static void add_force(const mech_model *m, const dense_ws *ws, int b, const double F[6], double *tau_e)
{
    for (; b >= 0; b = m->bodies[b].parent) {
        const mech_body *bb = &m->bodies[b];
        for (int c = 0; c < bb->nv; c++)
            for (int r = 0; r < 6; r++) tau_e[bb->vidx + c] += ws->Sw[b][bb->nv * r + c] * F[r];
    }
}

/* A force f along tendon t: tau_e_j += coef_j f (the transpose of its
 * length's Jacobian). */
static void tendon_apply(const mech_model *m, const mech_tendon *t, double f, double *tau_e)
{
    for (int k = 0; k < t->njoint; k++) tau_e[m->bodies[t->body[k]].vidx] += t->coef[k] * f;
}

void mech_element_forces(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *act,
                         double *tau_e)
{
    memset(tau_e, 0, (size_t)m->nv * sizeof *tau_e);
    if (m->ntsda) dense_world_kinematics(m, ws, q, qd);
    for (int i = 0; i < m->ntsda; i++) {
        const mech_tsda *t = &m->tsdas[i];
        double xa[3], xb[3], u[3], ldot, Fa[6], Fb[6];
        double l = tsda_state(m, ws, t, xa, xb, u, &ldot);
        double f = t->k * (l - t->l0) + t->c * ldot + (act && t->act >= 0 ? act[t->act] : 0.0); /* tension */
        for (int k = 0; k < 3; k++) {
            Fa[3 + k] = f * u[k];
            Fb[3 + k] = -f * u[k];
        }
        v3_cross(xa, Fa + 3, Fa); /* [x_a x f u; f u] on a   */
        v3_cross(xb, Fb + 3, Fb); /* [x_b x -f u; -f u] on b */
        add_force(m, ws, m->pois[t->poi_a].body, Fa, tau_e);
        add_force(m, ws, m->pois[t->poi_b].body, Fb, tau_e);
    }
    mech_joint_forces(m, q, qd, act, tau_e);
}

void mech_joint_forces(const mech_model *m, const double *q, const double *qd, const double *act, double *tau_e)
{
    for (int i = 0; i < m->nrsda; i++) {
        const mech_rsda *r = &m->rsdas[i];
        const mech_body *b = &m->bodies[r->body];
        tau_e[b->vidx] +=
            -r->k * (q[b->qidx] - r->q0) - r->c * (qd ? qd[b->vidx] : 0.0) + (act && r->act >= 0 ? act[r->act] : 0.0);
    }
    for (int i = 0; i < m->ntendon; i++) {
        const mech_tendon *t = &m->tendons[i];
        if (t->stiffness == 0 && t->damping == 0) continue;
        double ld, l = mech_tendon_length(m, t, q, qd, &ld);
        tendon_apply(m, t, -t->stiffness * (l - t->springlength) - t->damping * ld, tau_e);
    }
    for (int i = 0; i < m->nu; i++) {
        const mech_actuator *a = &m->actuators[i];
        double ctrl = act ? act[a->act] : 0.0;
        if (a->tendon >= 0) {
            const mech_tendon *t = &m->tendons[a->tendon];
            double ld, l = mech_tendon_length(m, t, q, qd, &ld);
            tendon_apply(m, t, a->gear * mech_actuator_force(a, ctrl, l, ld), tau_e);
            continue;
        }
        const mech_body *b = &m->bodies[a->body];
        double f = mech_actuator_force(a, ctrl, q[b->qidx], qd ? qd[b->vidx] : 0.0);
        tau_e[b->vidx] += a->gear * f;
    }
}

double mech_tendon_length(const mech_model *m, const mech_tendon *t, const double *q, const double *qd, double *ld)
{
    double l = 0.0;
    *ld = 0.0;
    for (int k = 0; k < t->njoint; k++) {
        const mech_body *b = &m->bodies[t->body[k]];
        l += t->coef[k] * q[b->qidx];
        if (qd) *ld += t->coef[k] * qd[b->vidx];
    }
    return l;
}

double mech_actuator_force(const mech_actuator *a, double ctrl, double q, double qd)
{
    if (a->ctrllimited) ctrl = fmin(fmax(ctrl, a->ctrlrange[0]), a->ctrlrange[1]);
    double f = a->gain * ctrl + a->bias[0] + a->bias[1] * (a->gear * q) + a->bias[2] * (a->gear * qd);
    if (a->forcelimited) f = fmin(fmax(f, a->forcerange[0]), a->forcerange[1]);
    return f;
}

int mech_observe_len(const mech_model *m) { return 6 * m->npoi + 2 * m->ntsda + 2 * m->nrsda; }

void mech_observe(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *out)
{
    dense_world_kinematics(m, ws, q, qd);
    for (int i = 0; i < m->npoi; i++) poi_state(m, ws, i, out + 6 * i, out + 6 * i + 3);
    out += 6 * m->npoi;
    for (int i = 0; i < m->ntsda; i++) {
        double xa[3], xb[3], u[3];
        out[2 * i] = tsda_state(m, ws, &m->tsdas[i], xa, xb, u, &out[2 * i + 1]);
    }
    out += 2 * m->ntsda;
    for (int i = 0; i < m->nrsda; i++) {
        const mech_body *b = &m->bodies[m->rsdas[i].body];
        out[2 * i] = q[b->qidx];
        out[2 * i + 1] = qd ? qd[b->vidx] : 0.0;
    }
}

int mech_find(const mech_model *m, const char *kind, const char *name)
{
    int base_t = 6 * m->npoi, base_r = base_t + 2 * m->ntsda;
    if (strcmp(kind, "poi") == 0) {
        for (int i = 0; i < m->npoi; i++)
            if (strcmp(m->pois[i].name, name) == 0) return 6 * i;
    } else if (strcmp(kind, "tsda") == 0) {
        for (int i = 0; i < m->ntsda; i++)
            if (strcmp(m->tsdas[i].name, name) == 0) return base_t + 2 * i;
    } else if (strcmp(kind, "rsda") == 0) {
        for (int i = 0; i < m->nrsda; i++)
            if (strcmp(m->rsdas[i].name, name) == 0) return base_r + 2 * i;
    } else if (strcmp(kind, "act") == 0) {
        for (int i = 0; i < m->ntsda; i++)
            if (m->tsdas[i].act >= 0 && strcmp(m->tsdas[i].name, name) == 0) return m->tsdas[i].act;
        for (int i = 0; i < m->nrsda; i++)
            if (m->rsdas[i].act >= 0 && strcmp(m->rsdas[i].name, name) == 0) return m->rsdas[i].act;
    }
    return -1;
}
