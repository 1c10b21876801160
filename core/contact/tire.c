/* tire.c — the Fiala tire law and its stage over every tire (tire.h;
 * docs/contact.md "Tires").  The patch forces are those of Project Chrono's
 * Fiala tire (ChFialaTire, after the MSC Adams transient Fiala model); the
 * contact is its disc against the terrain. */
#include "contact/tire.h"

#include <math.h>
#include <string.h>

#include "contact/terrain.h"
#include "contact/track_contact.h"
#include "spatial/spatial.h"

/* Below this forward speed the relaxed slips are springs, and a damper
 * (critical against the tire's share of the vehicle) fades in (m/s). */
#define TIRE_VLOW 1.0
/* The rolling resistance's sign, regularized over this rolling speed (m/s):
 * a standing vehicle pushed by less than its rolling resistance creeps at
 * most push / (rolling W) TIRE_VROLL. */
#define TIRE_VROLL 0.01

static double sgn(double v) { return (v > 0) - (v < 0); }

/* U = scale (UMAX - (UMAX - UMIN) SsA), SsA = min(1, max(|(kappa, tana)|, ssa_min)). */
static double friction(const mech_tire *t, double scale, double kappa, double tana, double ssa_min)
{
    double ssa = fmin(1.0, fmax(ssa_min, sqrt(kappa * kappa + tana * tana)));
    return scale * (t->umax - (t->umax - t->umin) * ssa);
}

void tire_fiala(const mech_tire *t, double scale, double ssa_min, double kappa, double tana, double fz, double *fx,
                double *fy, double *mz)
{
    *fx = *fy = *mz = 0;
    double uf = friction(t, scale, kappa, tana, ssa_min) * fz;
    if (!(uf > 0)) return;
    /* Longitudinal: linear up to the critical slip U Fz / (2 CSLIP), then
     * towards U Fz. */
    if (fabs(kappa) < uf / (2 * t->cslip)) *fx = t->cslip * kappa;
    else *fx = sgn(kappa) * (uf - uf * uf / (4 * fabs(kappa) * t->cslip));
    /* Lateral and aligning: the cubic up to tan(alpha_crit) = 3 U Fz / CALPHA. */
    double a = fabs(tana);
    if (a <= 3 * uf / t->calpha) {
        double H = 1 - t->calpha * a / (3 * uf), H3 = H * H * H;
        *fy = -uf * (1 - H3) * sgn(tana);
        *mz = uf * t->width * (1 - H) * H3 * sgn(tana);
    } else {
        *fy = -uf * sgn(tana);
    }
}

/* The curve's segment holding d (the last one beyond it). */
static int segment(const mech_tire *t, double d)
{
    int i = 1;
    while (i < t->ncurve - 1 && d > t->curve[i][0]) i++;
    return i;
}

double tire_vertical_force(const mech_tire *t, double d)
{
    if (!t->ncurve) return t->kz * d;
    int i = segment(t, d);
    const double *a = t->curve[i - 1], *b = t->curve[i];
    return a[1] + (b[1] - a[1]) * (d - a[0]) / (b[0] - a[0]);
}

double tire_vertical_energy(const mech_tire *t, double d)
{
    if (!t->ncurve) return 0.5 * t->kz * d * d;
    double U = 0;
    int i = segment(t, d);
    for (int j = 1; j < i; j++)
        U += 0.5 * (t->curve[j - 1][1] + t->curve[j][1]) * (t->curve[j][0] - t->curve[j - 1][0]);
    double a = t->curve[i - 1][0];
    return U + 0.5 * (t->curve[i - 1][1] + tire_vertical_force(t, d)) * (d - a);
}

/* The disc (centre k->p, spin axis a) against the terrain under its centre
 * (Chrono's disc-terrain contact): heading x = a x n, the lowest rim point
 * p = c + R (a x x), the deflection the terrain's height over p along n. */
int tire_patch(const mech_ground *gr, const mech_tire *t, const mech_body *b, const mech_body_kin *k, tire_contact *c)
{
    double h, hx, hy, a[3];
    m3_mulv(k->R, b->axis, a);
    terrain_eval(gr, k->p[0], k->p[1], &h, &hx, &hy);
    double nn = sqrt(hx * hx + hy * hy + 1);
    double n[3] = { -hx / nn, -hy / nn, 1 / nn }, x[3];
    v3_cross(a, n, x);
    double xl = v3_norm(x);
    if (xl < 1e-9) return 0; /* the wheel lies flat */
    for (int j = 0; j < 3; j++) x[j] /= xl;
    double down[3], p[3];
    v3_cross(a, x, down);
    for (int j = 0; j < 3; j++) p[j] = k->p[j] + t->radius * down[j];
    terrain_eval(gr, p[0], p[1], &h, &hx, &hy);
    c->d = (h - p[2]) * n[2];
    if (!(c->d > 0)) return 0;
    memcpy(c->x, x, sizeof c->x);
    memcpy(c->n, n, sizeof c->n);
    v3_cross(n, x, c->y);
    for (int j = 0; j < 3; j++) c->g[j] = p[j] + c->d * n[j];
    c->vx = v3_dot(k->pd, c->x);
    c->vy = v3_dot(k->pd, c->y);
    c->vz = v3_dot(k->pd, c->n);
    c->omega = v3_dot(k->w, a);
    return 1;
}

void tire_stage_init(tire_stage *s, const mech_model *m)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    double M = 0;
    for (int i = 0; i < m->nb; i++) M += m->bodies[i].mass;
    double share = m->ntire ? M / m->ntire : M;
    for (int i = 0; i < m->ntire; i++) {
        const mech_tire *t = &m->tires[i];
        s->scale[i] = m->ground.mu / t->mu;
        /* The relaxed slips at rest are springs CSLIP / sigma_x and
         * CALPHA / sigma_y; each damper is critical against the share. */
        s->cx[i] = 2 * sqrt(t->cslip / t->relax_x * share);
        s->cy[i] = 2 * sqrt(t->calpha / t->relax_y * share);
    }
}

/* Relax the slips over dt (backward Euler of sigma q' + |vx| q = input:
 * -vsx for kappa', vsy for tan alpha'), then keep them inside the law's
 * sliding limits: |kappa'| <= 1, |tan alpha'| <= 3 U Fz / CALPHA. */
static void relax(const mech_tire *t, double scale, double ssa_min, const tire_contact *c, double vsx, double fz,
                  double dt, tire_slip *s)
{
    double ax = fabs(c->vx);
    s->kappa = (s->kappa - dt * vsx / t->relax_x) / (1 + dt * ax / t->relax_x);
    s->tana = (s->tana + dt * c->vy / t->relax_y) / (1 + dt * ax / t->relax_y);
    s->kappa = fmax(-1.0, fmin(1.0, s->kappa));
    double lim = 3 * friction(t, scale, s->kappa, s->tana, ssa_min) * fz / t->calpha;
    s->tana = fmax(-lim, fmin(lim, s->tana));
}

/* One tire in contact c: its force and moment on the wheel. */
static void tire_force(const tire_stage *s, int i, const tire_contact *c, double dt, tire_slip *slip, double F[3],
                       double M[3])
{
    const mech_tire *t = &s->m->tires[i];
    double fz = tire_vertical_force(t, c->d) - t->cz * c->vz;
    if (fz < 0) fz = 0;
    double re = t->radius - c->d, vsx = c->vx - c->omega * re;
    /* Fiala's U is read at the larger of the relaxed and the kinematic
     * combined slip |(vsx, vy)| / max(|vx|, |omega R_e|) (a locked wheel
     * slides at full slip at any speed), and, below TIRE_VLOW (weight w),
     * at least w: there the relaxed slips are deflections, not slip
     * ratios, and a standing tire carries the full-slip UMIN. */
    double w = fmax(0.0, 1 - fabs(c->vx) / TIRE_VLOW), den = fmax(fabs(c->vx), fabs(c->omega * re));
    double smin = fmax(w, den > 0 ? fmin(1.0, hypot(vsx, c->vy) / den) : 0.0);
    if (dt > 0) relax(t, s->scale[i], smin, c, vsx, fz, dt, slip);
    /* At low speed the damper on the slip velocities, in slip units. */
    double kappa = slip->kappa - w * s->cx[i] / t->cslip * vsx;
    double tana = slip->tana + w * s->cy[i] / t->calpha * c->vy;
    double fx, fy, mz;
    tire_fiala(t, s->scale[i], smin, kappa, tana, fz, &fx, &fy, &mz);
    double roll = c->omega * re / TIRE_VROLL, my = -t->rolling * fz * fmax(-1.0, fmin(1.0, roll));
    /* The aligning moment is the moment of a rolling patch's lateral
     * stresses; a standing tire's relaxed tan alpha' is a uniform lateral
     * deflection, which has none: it fades out below TIRE_VLOW with w. */
    mz *= 1 - w;
    for (int j = 0; j < 3; j++) {
        F[j] = fx * c->x[j] + fy * c->y[j] + fz * c->n[j];
        M[j] = my * c->y[j] + mz * c->n[j];
    }
}

void tire_stage_forces(const tire_stage *s, const mech_body_kin *k, double dt, tire_slip *slip, double *fext,
                       double reaction[3], double *body_force, double *patch_force)
{
    const mech_model *m = s->m;
    for (int i = 0; i < m->ntire; i++) {
        const mech_tire *t = &m->tires[i];
        int b = t->body;
        tire_contact c;
        double *pf = patch_force ? patch_force + 6 * i : NULL;
        if (pf) memset(pf, 0, 6 * sizeof *pf);
        if (!tire_patch(&m->ground, t, &m->bodies[b], &k[b], &c)) {
            if (dt > 0) slip[i] = (tire_slip){ 0, 0 }; /* off the ground the patch forgets */
            continue;
        }
        double F[3], M[3];
        tire_force(s, i, &c, dt, &slip[i], F, M);
        contact_add_wrench(fext, b, c.g, F, 1.0);
        for (int j = 0; j < 3; j++) {
            fext[6 * b + j] += M[j];
            reaction[j] += F[j];
        }
        if (body_force)
            for (int j = 0; j < 3; j++) body_force[3 * b + j] += F[j];
        if (pf) {
            memcpy(pf, c.g, 3 * sizeof *pf);
            memcpy(pf + 3, F, 3 * sizeof *pf);
        }
    }
}

double tire_stage_potential(const tire_stage *s, const mech_body_kin *k)
{
    const mech_model *m = s->m;
    double U = 0;
    for (int i = 0; i < m->ntire; i++) {
        tire_contact c;
        const mech_tire *t = &m->tires[i];
        if (tire_patch(&m->ground, t, &m->bodies[t->body], &k[t->body], &c)) U += tire_vertical_energy(t, c.d);
    }
    return U;
}
