/* equality.c — see equality.h.  Rows as MuJoCo's mj_instantiateEquality
 * makes them (MuJoCo documentation, "Modeling", "Equality"):
 *   joint    r = q_a − (c0 + c1 q_b + c2 q_b² + c3 q_b³ + c4 q_b⁴),
 *            J = e_a − p′(q_b) e_b (without body2: r = q_a − c0, J = e_a);
 *   connect  r = x_a − x_b, world, of the anchor on a and its place on b at
 *            the reference pose; J = J_a(x_a) − J_b(x_b), one row per axis.
 * The weight of R: the sum over the equality's two sides of MuJoCo's
 * invweight0 at the reference pose, a coordinate's (H⁻¹)_jj for joint and,
 * for connect, a body's mean diagonal of J H⁻¹ Jᵀ over the three
 * translations of its centre of mass (the world: 0). */
#include "contact/equality.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/constraint.h"
#include "rbda/dense.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

struct equality_set {
    double *banchor; /* 3 per equality: connect's anchor on body b (the world's, b = −1) */
    double *weight;  /* per equality */
};

int equality_nrows(const mech_equality *e) { return e->type == MECH_EQ_JOINT ? 1 : 3; }

/* x = p + R a: a point of body b (its frame) in the world; b = −1: a itself. */
static void world_point(const mech_body_kin *kin, int b, const double a[3], double x[3])
{
    if (b < 0) {
        memcpy(x, a, 3 * sizeof *x);
        return;
    }
    m3_mulv(kin[b].R, a, x);
    for (int i = 0; i < 3; i++) x[i] += kin[b].p[i];
}

/* H⁻¹ at the reference into the weights: (H⁻¹)_jj of a coordinate, the
 * mean translational diagonal of a body's centre of mass. */
typedef struct {
    const mech_model *m;
    const mech_body_kin *kin;
    const double *L; /* H = L Lᵀ */
    double *x, *zero;
} reference;

static double dof_weight(const reference *r, int b)
{
    int nv = r->m->nv, j = r->m->bodies[b].vidx;
    memset(r->x, 0, (size_t)nv * sizeof *r->x);
    r->x[j] = 1.0;
    spd_cholesky_solve(nv, r->L, r->x);
    return r->x[j];
}

static double body_weight(const reference *r, int b)
{
    if (b < 0) return 0.0;
    const mech_model *m = r->m;
    int nv = m->nv;
    double c[3], w = 0.0;
    world_point(r->kin, b, m->bodies[b].com, c);
    for (int k = 0; k < 3; k++) {
        double u[3] = { 0, 0, 0 }, bias = 0.0;
        u[k] = 1.0;
        double *row = r->x + nv;
        memset(row, 0, (size_t)nv * sizeof *row);
        constraint_point_row(m, r->kin, b, c, u, 1.0, r->zero, row, &bias);
        memcpy(r->x, row, (size_t)nv * sizeof *row);
        spd_cholesky_solve(nv, r->L, r->x);
        for (int j = 0; j < nv; j++) w += row[j] * r->x[j];
    }
    return w / 3.0;
}

/* The anchors and weights at the reference pose: revolute, prismatic and
 * cylindrical coordinates 0, floating and spherical joints at their q0
 * (MuJoCo's qpos0, as the importer writes it). */
static int at_reference(const mech_model *m, equality_set *es)
{
    int nv = m->nv;
    double *q = calloc((size_t)(m->nq + nv * nv + 3 * nv) + 1, sizeof *q);
    mech_body_kin *kin = calloc((size_t)m->nb + 1, sizeof *kin);
    dense_ws *ws = dense_ws_new(m);
    int ok = q && kin && ws;
    if (ok) {
        double *H = q + m->nq;
        reference r = { .m = m, .kin = kin, .L = H, .x = H + nv * nv, .zero = H + nv * nv + 2 * nv };
        for (int i = 0; i < m->nb; i++) {
            const mech_body *b = &m->bodies[i];
            if (b->joint == MECH_JOINT_FLOATING || b->joint == MECH_JOINT_SPHERICAL)
                memcpy(q + b->qidx, b->q0, (size_t)b->nq * sizeof *q);
        }
        mech_world_kinematics(m, q, NULL, kin);
        dense_crba(m, ws, q, H);
        spd_cholesky(nv, H);
        for (int i = 0; i < m->nequality; i++) {
            const mech_equality *e = &m->equalities[i];
            if (e->type == MECH_EQ_JOINT) {
                es->weight[i] = dof_weight(&r, e->a) + (e->b >= 0 ? dof_weight(&r, e->b) : 0.0);
                continue;
            }
            double x[3], d[3];
            world_point(kin, e->a, e->anchor, x);
            double *ba = es->banchor + 3 * i;
            if (e->b < 0) memcpy(ba, x, sizeof x);
            else {
                for (int k = 0; k < 3; k++) d[k] = x[k] - kin[e->b].p[k];
                m3_tmulv(kin[e->b].R, d, ba);
            }
            es->weight[i] = body_weight(&r, e->a) + body_weight(&r, e->b);
        }
    }
    free(q);
    free(kin);
    dense_ws_free(ws);
    return ok ? 0 : -1;
}

equality_set *equality_new(const mech_model *m)
{
    equality_set *es = calloc(1, sizeof *es);
    if (!es) return NULL;
    es->banchor = calloc(4 * (size_t)m->nequality + 1, sizeof *es->banchor);
    if (es->banchor) es->weight = es->banchor + 3 * m->nequality;
    if (!es->banchor || at_reference(m, es)) {
        equality_free(es);
        return NULL;
    }
    return es;
}

void equality_free(equality_set *es)
{
    if (!es) return;
    free(es->banchor);
    free(es);
}

void equality_row(const mech_model *m, const equality_set *es, const mech_body_kin *kin, int e, int k, const double *q,
                  const double *v, double *J, double *r, double *bias)
{
    const mech_equality *eq = &m->equalities[e];
    if (eq->type == MECH_EQ_JOINT) {
        const mech_body *a = &m->bodies[eq->a];
        const double *c = eq->polycoef;
        J[a->vidx] = 1.0;
        *r = q[a->qidx] - c[0];
        if (eq->b < 0) return;
        const mech_body *b = &m->bodies[eq->b];
        double x = q[b->qidx];
        *r -= x * (c[1] + x * (c[2] + x * (c[3] + x * c[4])));
        J[b->vidx] -= c[1] + x * (2 * c[2] + x * (3 * c[3] + x * 4 * c[4]));
        return;
    }
    double xa[3], xb[3], u[3] = { 0, 0, 0 };
    u[k] = 1.0;
    world_point(kin, eq->a, eq->anchor, xa);
    world_point(kin, eq->b, es->banchor + 3 * e, xb);
    *r = xa[k] - xb[k];
    constraint_point_row(m, kin, eq->a, xa, u, 1.0, v, J, bias);
    if (eq->b >= 0) constraint_point_row(m, kin, eq->b, xb, u, -1.0, v, J, bias);
}

double equality_distance(const mech_model *m, int e, const double *r)
{
    double d2 = 0.0;
    for (int k = 0; k < equality_nrows(&m->equalities[e]); k++) d2 += r[k] * r[k];
    return sqrt(d2);
}

void equality_soft(const mech_model *m, const equality_set *es, int e, const double **solref, const double **solimp,
                   double *weight)
{
    *solref = m->equalities[e].solref;
    *solimp = m->equalities[e].solimp;
    *weight = es->weight[e];
}
