/* ground_contact.c — the vertical-gap ground law and its assembly over every
 * pad corner (ground_contact.h, laws.h; docs/contact.md "Ground", after the
 * dynamics README's "Ground contact" and "Holding on a slope"). */
#include "contact/ground_contact.h"

#include <string.h>

#include "contact/terrain.h"
#include "contact/track_contact.h"
#include "spatial/spatial.h"

/* g = h(p_x, p_y) - p_z and the unnormalized direction (-h_x, -h_y, 1) = -grad g. */
static double gap(const ground_params *P, const double p[3], double n[3])
{
    double h, hx, hy;
    terrain_eval(P->g, p[0], p[1], &h, &hx, &hy);
    n[0] = -hx;
    n[1] = -hy;
    n[2] = 1.0;
    return h - p[2];
}

/* The normal part F = (kn g + c ramp(g) g') (-h_x, -h_y, 1), g' = -n . u,
 * clamped at zero.  -grad(1/2 kn g^2) is its elastic part verbatim, so the
 * law is conservative on any terrain with first derivatives only.  Returns
 * the multiplier f (>= 0). */
static double normal_part(const ground_params *P, double g, const double n[3], const double u[3])
{
    double gd = -(n[0] * u[0] + n[1] * u[1] + n[2] * u[2]);
    double f = P->kn * g + P->c * contact_ramp(g) * gd;
    return f > 0 ? f : 0;
}

/* The regularized law at a gap g > 0 under the corner, n as gap gives it. */
static void regularized(const ground_params *P, double g, const double n[3], const double u[3], double dt, double F[3])
{
    F[0] = F[1] = F[2] = 0;
    double f = normal_part(P, g, n, u);
    if (f == 0) return;
    /* Regularized Coulomb on the tangential slip, implicit against m_eff;
     * the normal load is |F_n| = f |n|. */
    double nn = v3_norm(n), nh[3] = { n[0] / nn, n[1] / nn, n[2] / nn };
    double un = v3_dot(u, nh), ut[3] = { u[0] - un * nh[0], u[1] - un * nh[1], u[2] - un * nh[2] };
    double k = P->mu * f * nn / sqrt(v3_dot(ut, ut) + P->veps * P->veps);
    double ki = contact_implicit_slope(k, dt, P->m_eff);
    for (int c = 0; c < 3; c++) F[c] = f * n[c] - ki * ut[c];
}

double ground_force(const ground_params *P, const double p[3], const double u[3], double dt, double F[3])
{
    double n[3], g = gap(P, p, n);
    F[0] = F[1] = F[2] = 0;
    if (g > 0) regularized(P, g, n, u, dt, F);
    return g;
}

double ground_potential(const ground_params *P, const double p[3])
{
    double n[3], g = gap(P, p, n);
    return g > 0 ? 0.5 * P->kn * g * g : 0.0;
}

/* z = P_a (p - a), P_a = 1 - n_a n_a^T the anchor's tangent projector. */
static void deflection(const ground_anchor *A, const double p[3], double z[3])
{
    double r[3] = { p[0] - A->a[0], p[1] - A->a[1], p[2] - A->a[2] }, rn = v3_dot(r, A->n);
    for (int c = 0; c < 3; c++) z[c] = r[c] - rn * A->n[c];
}

/* Lift-off drops the anchor; only a step (dt > 0) moves anchors. */
static void lift_off(ground_anchor *A, double dt)
{
    if (dt > 0) A->on = 0;
}

/* The elastoplastic anchor (Dupont et al.; Cundall & Strack's tangential
 * spring) at a gap g > 0 under the corner p: trial f = -kt z - ct u_t (ct
 * implicit against m_eff); inside the cone mu |F_n| it stands and the
 * anchor stays; outside, the radial return s = mu |F_n| / |f| scales it onto
 * the cone and (dt > 0) the anchor moves by the backward-Euler slip
 * da = (s - 1) f / (kt + ct / dt). */
static void anchored(const ground_params *P, ground_anchor *A, double g, const double n[3], const double p[3],
                     const double u[3], double dt, double F[3])
{
    double f = normal_part(P, g, n, u), nn = v3_norm(n);
    ground_anchor fresh;
    const ground_anchor *a = A;
    if (!A->on) { /* touchdown: the anchor is where the corner is */
        memcpy(fresh.a, p, sizeof fresh.a);
        for (int c = 0; c < 3; c++) fresh.n[c] = n[c] / nn;
        fresh.on = 1;
        a = &fresh;
    }
    double z[3], un = v3_dot(u, a->n), ft[3];
    deflection(a, p, z);
    double ct = contact_implicit_slope(P->ct, dt, P->m_eff);
    for (int c = 0; c < 3; c++) ft[c] = -P->kt * z[c] - ct * (u[c] - un * a->n[c]);
    double lim = P->mu * f * nn, mag = v3_norm(ft), s = 1.0;
    if (mag > lim) s = mag > 0 ? lim / mag : 0.0;
    if (dt > 0) {
        if (!A->on) *A = fresh;
        if (s < 1.0) {
            double den = P->kt + ct / dt;
            for (int c = 0; c < 3; c++) A->a[c] += (s - 1.0) * ft[c] / den;
        }
    }
    for (int c = 0; c < 3; c++) F[c] = f * n[c] + s * ft[c];
}

double ground_force_anchored(const ground_params *P, ground_anchor *A, const double p[3], const double u[3], double dt,
                             double F[3])
{
    double n[3], g = gap(P, p, n);
    F[0] = F[1] = F[2] = 0;
    if (g > 0) anchored(P, A, g, n, p, u, dt, F);
    else lift_off(A, dt);
    return g;
}

double ground_anchor_potential(const ground_params *P, const ground_anchor *A, const double p[3])
{
    if (!A->on) return 0;
    double z[3];
    deflection(A, p, z);
    return 0.5 * P->kt * v3_dot(z, z);
}

/* ---- assembly ---- */

void ground_corner_local(const mech_track *t, int c, double x[3])
{
    x[0] = 0.5 * t->link + ((c & 1) ? 0.5 : -0.5) * t->pad_length;
    x[1] = ((c & 2) ? 0.5 : -0.5) * t->pad_width;
    x[2] = t->pad_z;
}

void ground_stage_init(ground_stage *g, const mech_model *m)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    const mech_ground *gr = &m->ground;
    double M = 0, shoe = 0;
    for (int i = 0; i < m->nb; i++) M += m->bodies[i].mass;
    for (int t = 0; t < m->ntrack; t++) {
        g->ncorner += 4 * m->tracks[t].nshoe;
        shoe += m->tracks[t].shoe_mass * m->tracks[t].nshoe;
    }
    ground_params *P = &g->P;
    P->g = gr;
    P->kn = gr->kn;
    P->kt = gr->kt;
    P->mu = gr->mu;
    P->veps = gr->veps;
    /* Damping against the supported mass: the vehicle over the corners
     * expected to carry it, a quarter of them (one band's lower run). */
    double m_sup = g->ncorner ? M / (0.25 * g->ncorner) : M;
    P->c = 2.0 * gr->zeta * sqrt(gr->kn * m_sup);
    /* Implicit friction against what one corner's impulse moves: a quarter
     * of a shoe (the mean shoe over the bands). */
    int ns = g->ncorner / 4;
    P->m_eff = ns ? 0.25 * shoe / ns : 0.25 * M;
    P->ct = 2.0 * gr->zeta * sqrt(gr->kt * P->m_eff);
    if (gr->type == MECH_GROUND_GRID) g->top = terrain_grid_top(gr);
}

/* Whether no pad corner of shoe kinematics ks can touch: the corners lie
 * within r (the pad's half-diagonal) of its centre xc (shoe frame), so they
 * are all clear when c_z - r is above the terrain's highest point within r
 * of c: a plane's exactly (its slope |grad h| given), a grid's bound over
 * its field. */
static int shoe_clear(const ground_stage *g, const mech_body_kin *ks, const double xc[3], double r, double slope)
{
    const mech_ground *gr = g->P.g;
    double c[3];
    m3_mulv(ks->R, xc, c);
    for (int j = 0; j < 3; j++) c[j] += ks->p[j];
    double top = gr->type == MECH_GROUND_PLANE ? gr->z0 + gr->sx * c[0] + gr->sy * c[1] + slope * r : g->top;
    return c[2] - r > top;
}

void ground_stage_forces(const ground_stage *g, const mech_body_kin *k, double dt, ground_anchor *anchors, double *fext,
                         double reaction[3], double *body_force)
{
    const mech_model *m = g->m;
    int anchored_mode = anchors && m->ground.friction == MECH_FRICTION_ANCHORED, idx = 0;
    double slope = sqrt(m->ground.sx * m->ground.sx + m->ground.sy * m->ground.sy);
    for (int t = 0; t < m->ntrack; t++) {
        const mech_track *tr = &m->tracks[t];
        double xl[4][3], xc[3] = { 0.5 * tr->link, 0, tr->pad_z };
        for (int c = 0; c < 4; c++) ground_corner_local(tr, c, xl[c]);
        /* the half-diagonal, with 1e-6 relative slack: round-off never skips a touching corner */
        double r = (1 + 1e-6) * 0.5 * sqrt(tr->pad_length * tr->pad_length + tr->pad_width * tr->pad_width);
        for (int i = 0; i < tr->nshoe; i++, idx += 4) {
            int s = tr->shoe0 + i;
            const mech_body_kin *ks = &k[s];
            if (shoe_clear(g, ks, xc, r, slope)) {
                if (anchored_mode)
                    for (int c = 0; c < 4; c++) lift_off(&anchors[idx + c], dt);
                continue;
            }
            for (int c = 0; c < 4; c++) {
                ground_anchor *A = anchored_mode ? &anchors[idx + c] : NULL;
                double p[3], n[3], u[3], F[3];
                m3_mulv(ks->R, xl[c], p);
                for (int j = 0; j < 3; j++) p[j] += ks->p[j];
                double gp = gap(&g->P, p, n);
                if (gp <= 0) {
                    if (A) lift_off(A, dt);
                    continue;
                }
                mech_point_velocity(ks, p, u);
                if (A) anchored(&g->P, A, gp, n, p, u, dt, F);
                else regularized(&g->P, gp, n, u, dt, F);
                if (F[0] == 0 && F[1] == 0 && F[2] == 0) continue;
                contact_add_wrench(fext, s, p, F, 1.0);
                for (int j = 0; j < 3; j++) reaction[j] += F[j];
                if (body_force)
                    for (int j = 0; j < 3; j++) body_force[3 * s + j] += F[j];
            }
        }
    }
}

double ground_stage_potential(const ground_stage *g, const mech_body_kin *k, const ground_anchor *anchors)
{
    const mech_model *m = g->m;
    double U = 0;
    int idx = 0;
    for (int t = 0; t < m->ntrack; t++) {
        const mech_track *tr = &m->tracks[t];
        for (int i = 0; i < tr->nshoe; i++) {
            const mech_body_kin *ks = &k[tr->shoe0 + i];
            for (int c = 0; c < 4; c++, idx++) {
                double xl[3], p[3];
                ground_corner_local(tr, c, xl);
                m3_mulv(ks->R, xl, p);
                for (int j = 0; j < 3; j++) p[j] += ks->p[j];
                U += ground_potential(&g->P, p);
                if (anchors) U += ground_anchor_potential(&g->P, &anchors[idx], p);
            }
        }
    }
    return U;
}
