/* track_contact.c — the band's contact laws and their all-pairs assembly
 * (track_contact.h, laws.h; equations and constants in docs/contact.md,
 * after the dynamics README's "Track contact"). */
#include "contact/track_contact.h"

#include <string.h>

#include "spatial/mech_sincos.h"
#include "spatial/spatial.h"

double pin_gate(double delta, double *dg)
{
    double ds, g = contact_smoothstep((delta + CONTACT_GATE_FADE) / CONTACT_GATE_FADE, &ds);
    *dg = ds / CONTACT_GATE_FADE;
    return g;
}

double tooth_potential(const pin_params *P, double theta, double *dU)
{
    double N = P->teeth, s, c;
    mech_sincos(N * (theta - P->theta0), &s, &c);
    *dU = P->fskip * P->R * s;
    return P->fskip * P->R / N * (1.0 - c);
}

/* rho: d's radius in the band plane (x, z). */
static double band_radius(const double d[3]) { return sqrt(d[0] * d[0] + d[2] * d[2]); }

/* The radial unit er and the circumferential unit et = d er / d theta of d
 * in the band plane, rho its radius there (theta = atan2(z, x), which only
 * the tooth law reads). */
static void polar(const double d[3], double rho, double er[2], double et[2])
{
    er[0] = d[0] / rho;
    er[1] = d[2] / rho;
    et[0] = -er[1];
    et[1] = er[0];
}

/* Radial: one-sided spring and damper, the damper faded in by ramp(delta)
 * and the sum clamped at zero so it never pulls a separating pin back.
 * Gated (g(delta)): the lateral guide 1/2 kg y^2 and, on the drive, the
 * tooth potential U0(theta); -grad of g U in polar coordinates is a radial
 * g'(delta) U (delta = R - rho, so d/drho = -d/ddelta) and a circumferential
 * -(g / rho) dU0/dtheta — the moment arm is rho, not R.  Friction on the
 * other end rollers: regularized Coulomb on the circumferential slip, solved
 * implicitly against the pair's reduced mass. */
void pin_force(const pin_params *P, const double d[3], const double u[3], double dt, double f[3])
{
    double rho = band_radius(d), er[2], et[2];
    f[0] = f[1] = f[2] = 0;
    double delta = P->R - rho;
    if (delta <= -CONTACT_GATE_FADE || rho == 0) return;
    polar(d, rho, er, et);
    double ur = u[0] * er[0] + u[2] * er[1], ut = u[0] * et[0] + u[2] * et[1], uy = u[1];
    double fc = 0, ft = 0, dg, g = pin_gate(delta, &dg);
    if (delta > 0) {
        fc = P->kn * delta - P->c * contact_ramp(delta) * ur; /* delta' = -ur */
        if (fc < 0) fc = 0;
    }
    double y = d[1], fn = fc + dg * 0.5 * P->kg * y * y;
    f[1] = -g * (P->kg * y + P->cg * uy);
    if (P->drive) {
        double dU, U0 = tooth_potential(P, atan2(d[2], d[0]), &dU);
        fn += dg * U0;
        ft = -g * (dU / rho + P->c * ut);
    } else if (fc > 0) {
        double k = P->mu * fc / sqrt(ut * ut + P->veps * P->veps);
        ft = -contact_implicit_slope(k, dt, P->m_pair) * ut;
    }
    f[0] = fn * er[0] + ft * et[0];
    f[2] = fn * er[1] + ft * et[1];
}

double pin_potential(const pin_params *P, const double d[3])
{
    double delta = P->R - band_radius(d), dg, dU;
    double U = delta > 0 ? 0.5 * P->kn * delta * delta : 0.0;
    double g = pin_gate(delta, &dg);
    if (g == 0) return U;
    double Ug = 0.5 * P->kg * d[1] * d[1];
    if (P->drive) Ug += tooth_potential(P, atan2(d[2], d[0]), &dU);
    return U + g * Ug;
}

double face_weight(const face_params *P, double x, double *dw)
{
    double f2 = 2 * P->fade, d0, d1;
    double s0 = contact_smoothstep((x + P->fade) / f2, &d0);
    double s1 = contact_smoothstep((x - P->link + P->fade) / f2, &d1);
    *dw = (d0 * (1 - s1) - s0 * d1) / f2;
    return s0 * (1 - s1);
}

/* U = 1/2 w(a_x) kn delta^2 acts at the axle, conjugate to the axle's
 * velocity against the shoe: on the roller -dU/da = (-1/2 kn delta^2 w',
 * 0, w kn delta), the w' term being the gate's tangential part; the damper
 * w c ramp delta' (delta' = -ua_z) joins the normal part before the clamp.
 * Friction acts at the foot on the slip us (roller against shoe): on the
 * shoe +k us, k the implicit regularized Coulomb slope. */
void face_force(const face_params *P, const double a[3], const double ua[3], const double us[3], double dt,
                double fa[3], double ff[3])
{
    fa[0] = fa[1] = fa[2] = ff[0] = ff[1] = ff[2] = 0;
    double delta = P->radius - (a[2] - P->zf), dw;
    if (delta <= 0) return;
    double w = face_weight(P, a[0], &dw);
    if (w == 0 && dw == 0) return;
    double fn = w * (P->kn * delta - P->c * contact_ramp(delta) * ua[2]);
    if (fn < 0) fn = 0;
    fa[0] = 0.5 * P->kn * delta * delta * dw; /* on the shoe: minus the roller's */
    fa[2] = -fn;
    if (fn > 0) {
        double k = P->mu * fn / sqrt(us[0] * us[0] + P->veps * P->veps);
        ff[0] = contact_implicit_slope(k, dt, P->m_pair) * us[0];
    }
}

double face_potential(const face_params *P, const double a[3])
{
    double delta = P->radius - (a[2] - P->zf), dw;
    if (delta <= 0) return 0;
    return 0.5 * face_weight(P, a[0], &dw) * P->kn * delta * delta;
}

/* ---- assembly ---- */

/* v_roller-frame = R^T v. */
static void to_frame(const double R[9], const double v[3], double out[3]) { m3_tmulv(R, v, out); }

void track_pin_in_roller(const track_band *b, const mech_body_kin *k, int pi, int e, double d[3])
{
    const mech_body_kin *kr = &k[b->pin[e].body], *ks = &k[b->t->shoe0 + pi];
    double r[3] = { ks->p[0] - kr->p[0], ks->p[1] - kr->p[1], ks->p[2] - kr->p[2] };
    to_frame(kr->R, r, d);
}

/* The rim's translational-plus-spin mobility 1/m_rim = 1/m_roller + R^2/I_axle,
 * I_axle the roller's inertia about its axle (its y, through its origin). */
static double rim_inverse_mass(const mech_body *r, double R)
{
    double I = r->inertia[4] + r->mass * (r->com[0] * r->com[0] + r->com[2] * r->com[2]);
    return 1.0 / r->mass + R * R / I;
}

void track_band_init(track_band *b, const mech_model *m, const mech_track *t, const mech_body_kin *k0)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    double c = 2.0 * t->zeta * sqrt(t->kn * t->shoe_mass);
    for (int i = 0; i < t->nroller; i++) {
        const mech_roller *ro = &t->rollers[i];
        const mech_body *rb = &m->bodies[ro->body];
        if (ro->end) {
            track_pin_roller *pr = &b->pin[b->nend++];
            pin_params *P = &pr->P;
            pr->body = ro->body;
            P->R = ro->radius;
            P->kn = P->kg = t->kn;
            P->c = P->cg = c;
            P->mu = t->mu;
            P->veps = t->veps;
            P->drive = ro->drive;
            P->teeth = ro->drive ? ro->teeth : 0;
            /* F_skip = kn R / N: the pocket's circumferential stiffness
             * F_skip N / R then equals the radial kn, so the step sized on kn
             * resolves both (docs/contact.md "Constants"). */
            P->fskip = P->teeth ? t->kn * ro->radius / P->teeth : 0.0;
            /* Pins on the rim at the design pose (the n of the pair mass),
             * and the deepest one's phase as a pocket centre. */
            int n = 0;
            double best = -INFINITY;
            for (int s = 0; s < t->nshoe; s++) {
                double d[3];
                track_pin_in_roller(b, k0, s, b->nend - 1, d);
                double delta = ro->radius - band_radius(d);
                if (delta > -CONTACT_GATE_FADE) n++;
                if (delta > best) {
                    best = delta;
                    P->theta0 = atan2(d[2], d[0]);
                }
            }
            if (n < 1) n = 1;
            P->m_pair = 1.0 / (1.0 / t->shoe_mass + n * rim_inverse_mass(rb, ro->radius));
        } else {
            track_face_roller *fr = &b->face[b->nface++];
            face_params *P = &fr->P;
            fr->body = ro->body;
            P->radius = ro->radius;
            P->zf = t->pad_z + t->thickness;
            P->link = t->link;
            P->fade = 0.25 * t->link; /* each face at full weight over its middle half */
            P->kn = t->kn;
            P->c = c;
            P->mu = t->mu;
            P->veps = t->veps;
            P->m_pair = 1.0 / (1.0 / t->shoe_mass + rim_inverse_mass(rb, ro->radius));
        }
    }
}

/* x and z of v in the frame R (its band plane): two columns of R^T v. */
static void in_band_plane(const double R[9], const double v[3], double *x, double *z)
{
    *x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    *z = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
}

/* Whether the pin at p is inside the pin law's reach of end roller kr: its
 * band-plane radius under R + fade (beyond, pin_force is zero). */
static int pin_within_reach(const pin_params *P, const mech_body_kin *kr, const double p[3])
{
    double r[3] = { p[0] - kr->p[0], p[1] - kr->p[1], p[2] - kr->p[2] }, x, z;
    in_band_plane(kr->R, r, &x, &z);
    double reach = P->R + CONTACT_GATE_FADE;
    return x * x + z * z < reach * reach;
}

/* Whether the axle at p is inside the face law's support on shoe ks: the
 * rim below the face (delta > 0) and the axle within the weight's reach
 * (-fade, link + fade) along it (beyond, face_force is zero). */
static int face_within_reach(const face_params *P, const mech_body_kin *ks, const double p[3])
{
    double r[3] = { p[0] - ks->p[0], p[1] - ks->p[1], p[2] - ks->p[2] }, x, z;
    in_band_plane(ks->R, r, &x, &z);
    return P->radius - (z - P->zf) > 0 && x > -P->fade && x < P->link + P->fade;
}

/* Shoe s's pin (its origin) against end roller e. */
static void pin_pair(const track_band *b, const mech_body_kin *k, int s, int e, double dt, double *fext)
{
    const track_pin_roller *pr = &b->pin[e];
    const mech_body_kin *kr = &k[pr->body], *ks = &k[s];
    double r[3] = { ks->p[0] - kr->p[0], ks->p[1] - kr->p[1], ks->p[2] - kr->p[2] }, d[3];
    double vr[3], uw[3], u[3], f[3], F[3];
    to_frame(kr->R, r, d);
    mech_point_velocity(kr, ks->p, vr);
    for (int c = 0; c < 3; c++) uw[c] = ks->pd[c] - vr[c];
    to_frame(kr->R, uw, u);
    pin_force(&pr->P, d, u, dt, f);
    m3_mulv(kr->R, f, F);
    contact_add_pair(fext, s, pr->body, ks->p, F);
}

/* Shoe s's running face against road wheel w: the conservative part at the
 * axle, friction at the foot (the rim point nearest the face). */
static void face_pair(const track_band *b, const mech_body_kin *k, int s, int w, double dt, double *fext)
{
    const track_face_roller *fr = &b->face[w];
    const face_params *P = &fr->P;
    const mech_body_kin *kr = &k[fr->body], *ks = &k[s];
    double r[3] = { kr->p[0] - ks->p[0], kr->p[1] - ks->p[1], kr->p[2] - ks->p[2] }, a[3];
    double foot[3], vs[3], vw[3], du[3], ua[3], us[3], fa[3], ff[3], F[3];
    to_frame(ks->R, r, a);
    for (int c = 0; c < 3; c++) foot[c] = kr->p[c] - P->radius * ks->R[3 * c + 2];
    mech_point_velocity(ks, kr->p, vs);
    for (int c = 0; c < 3; c++) du[c] = kr->pd[c] - vs[c];
    to_frame(ks->R, du, ua);
    mech_point_velocity(ks, foot, vs);
    mech_point_velocity(kr, foot, vw);
    for (int c = 0; c < 3; c++) du[c] = vw[c] - vs[c];
    to_frame(ks->R, du, us);
    face_force(P, a, ua, us, dt, fa, ff);
    m3_mulv(ks->R, fa, F);
    contact_add_pair(fext, s, fr->body, kr->p, F);
    if (ff[0] != 0) {
        m3_mulv(ks->R, ff, F);
        contact_add_pair(fext, s, fr->body, foot, F);
    }
}

void track_band_forces(const track_band *b, const mech_body_kin *k, double dt, double *fext)
{
    const mech_track *t = b->t;
    for (int i = 0; i < t->nshoe; i++) {
        int s = t->shoe0 + i;
        for (int e = 0; e < b->nend; e++)
            if (pin_within_reach(&b->pin[e].P, &k[b->pin[e].body], k[s].p)) pin_pair(b, k, s, e, dt, fext);
        for (int w = 0; w < b->nface; w++)
            if (face_within_reach(&b->face[w].P, &k[s], k[b->face[w].body].p)) face_pair(b, k, s, w, dt, fext);
    }
}

double track_band_potential(const track_band *b, const mech_body_kin *k)
{
    const mech_track *t = b->t;
    double U = 0;
    for (int i = 0; i < t->nshoe; i++) {
        const mech_body_kin *ks = &k[t->shoe0 + i];
        for (int e = 0; e < b->nend; e++) {
            double d[3];
            track_pin_in_roller(b, k, i, e, d);
            U += pin_potential(&b->pin[e].P, d);
        }
        for (int w = 0; w < b->nface; w++) {
            const mech_body_kin *kr = &k[b->face[w].body];
            double r[3] = { kr->p[0] - ks->p[0], kr->p[1] - ks->p[1], kr->p[2] - ks->p[2] }, a[3];
            to_frame(ks->R, r, a);
            U += face_potential(&b->face[w].P, a);
        }
    }
    return U;
}
