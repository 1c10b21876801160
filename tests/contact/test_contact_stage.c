/* test_contact_stage.c — the contact stage on a model (core/contact/contact.c; docs/contact.md).
 *
 *   test_contact_stage synthetic   the stage on a band built here (two end rollers, a road wheel, 24 floating
 *                                  shoes, a sloped ground)
 *   test_contact_stage model FILE  the stage on FILE: with a band or a ground, every stage check; without, zero force
 * Stage checks: lean kinematics vs dense_world_kinematics (and bitwise the same with the joints found once), band
 * wrenches sum to zero (exact pairs), the ground wrench vs an independent sum landing only on shoes, bitwise
 * determinism, sprocket torque from fext vs summed directly, no penetration at the design pose on the end rollers;
 * with tires: their wrench only on wheels, the vertical force -dU/dz.
 * Fixed seeds throughout.  Exit 0 on pass, 1 on any failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/ground_contact.h"
#include "contact/laws.h"
#include "contact/terrain.h"
#include "contact/track_contact.h"
#include "model/model.h"
#include "rbda/dense.h"
#include "rbda/kinematics.h"
#include "rbda/sample.h"
#include "spatial/spatial.h"

#include "test_support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "contact_gates.h"
#include "test_support.h"

/* ---- the stage on a model ---- */

/* A band built here, as the parser lays one out: two end rollers of radius
 * R at x = 0 (the drive) and x = L, a road wheel on the lower run, and
 * nshoe floating shoes around the stadium, each at its leading pin with x
 * to the next pin, y the axle, z = x × y towards the rollers; a sloped
 * ground plane just touching the lower run's pads. */
#define SYN_SHOES 24
static mech_model *synthetic_model(void)
{
    const double R = 0.25, L = 1.2, rw = 0.15, pad_z = -0.04, thick = 0.05;
    static char text[1 << 16];
    int n = snprintf(
        text, sizeof text,
        "description synthetic band\ngravity 0 0 -9.81\n"
        "body sprocket\n parent base\n joint revolute y\n mass 30\n inertia 0.5 0.9 0.5\n fext 1\nend\n"
        "body idler\n parent base\n joint revolute y\n pos %.17g 0 0\n mass 30\n inertia 0.5 0.9 0.5\n fext 1\nend\n"
        "body wheel\n parent base\n joint revolute y\n pos %.17g 0 %.17g\n mass 20\n inertia 0.2 0.3 0.2\n fext 1\nend\n",
        L, 0.5 * L, -R + pad_z + thick + rw - 0.002);
    for (int i = 0; i < SYN_SHOES; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "body shoe%d\n parent base\n joint floating\n mass 5\n inertia 0.02 0.05 0.05\n fext 1\nend\n", i);
    mech_model *m = test_parse_text(text, "synthetic");
    /* the pins on the stadium: lower run +x, idler arc, top run -x, sprocket arc */
    double P = 2 * L + 2 * M_PI * R, link = P / SYN_SHOES, pin[SYN_SHOES + 1][2];
    for (int i = 0; i <= SYN_SHOES; i++) {
        double s = fmod(i * link, P);
        if (s < L) {
            pin[i][0] = s;
            pin[i][1] = -R;
        } else if (s < L + M_PI * R) {
            double a = -M_PI / 2 + (s - L) / R;
            pin[i][0] = L + R * cos(a);
            pin[i][1] = R * sin(a);
        } else if (s < 2 * L + M_PI * R) {
            pin[i][0] = L - (s - L - M_PI * R);
            pin[i][1] = R;
        } else {
            double a = M_PI / 2 + (s - 2 * L - M_PI * R) / R;
            pin[i][0] = R * cos(a);
            pin[i][1] = R * sin(a);
        }
    }
    for (int i = 0; i < SYN_SHOES; i++) {
        mech_body *b = &m->bodies[3 + i];
        double dx = pin[i + 1][0] - pin[i][0], dz = pin[i + 1][1] - pin[i][1], l = hypot(dx, dz);
        double X[3] = { dx / l, 0, dz / l }, Y[3] = { 0, 1, 0 }, Z[3], Rm[9], qa[4];
        v3_cross(X, Y, Z);
        for (int r = 0; r < 3; r++) {
            Rm[3 * r] = X[r];
            Rm[3 * r + 1] = Y[r];
            Rm[3 * r + 2] = Z[r];
        }
        rot_to_quat(Rm, qa);
        memcpy(b->q0, qa, sizeof qa);
        b->q0[4] = pin[i][0];
        b->q0[5] = 0;
        b->q0[6] = pin[i][1];
    }
    m->tracks = calloc(1, sizeof *m->tracks);
    m->ntrack = 1;
    mech_track *t = m->tracks;
    snprintf(t->name, sizeof t->name, "band");
    t->root = -1;
    t->nshoe = SYN_SHOES;
    t->shoe0 = 3;
    t->loop = -1;
    t->pitch = t->link = link;
    t->perimeter = P;
    t->shoe_mass = 5;
    t->shoe_inertia[0] = 0.02;
    t->shoe_inertia[4] = t->shoe_inertia[8] = 0.05;
    t->pad_z = pad_z;
    t->pad_length = 0.8 * link;
    t->pad_width = 0.3;
    t->thickness = thick;
    t->kn = 2e5;
    t->kt = 2e5;
    t->mu = 0.8;
    t->zeta = 0.2;
    t->veps = 0.01;
    t->nroller = 3;
    t->rollers[0] = (mech_roller){ .body = 0, .radius = R, .end = 1, .drive = 1, .teeth = 10, .centre = { 0, 0 } };
    t->rollers[1] = (mech_roller){ .body = 1, .radius = R, .end = 1, .centre = { L, 0 } };
    t->rollers[2] = (mech_roller){ .body = 2, .radius = rw, .end = 0, .centre = { 0.5 * L, m->bodies[2].pos[2] } };
    mech_ground *g = &m->ground;
    g->type = MECH_GROUND_PLANE;
    g->z0 = -R + pad_z + 0.001;
    g->sx = 0.02;
    g->sy = -0.01;
    g->kn = 1e5;
    g->kt = 1e5;
    g->mu = 0.8;
    g->zeta = 0.2;
    g->veps = 0.01;
    return m;
}

static int shoe_band(const mech_model *m, int body)
{
    for (int t = 0; t < m->ntrack; t++)
        if (body >= m->tracks[t].shoe0 && body < m->tracks[t].shoe0 + m->tracks[t].nshoe) return t;
    return -1;
}

static int roller_of(const mech_model *m, int body)
{
    for (int t = 0; t < m->ntrack; t++)
        for (int r = 0; r < m->tracks[t].nroller; r++)
            if (m->tracks[t].rollers[r].body == body) return 1;
    return 0;
}

/* Near the design pose: shoes a few mm and mrad off, rollers at any angle,
 * everything moving. */
static void near_design(const mech_model *m, mech_rng *r, double *q, double *qd)
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double *qi = q + b->qidx, *vi = qd + b->vidx;
        int shoe = shoe_band(m, i) >= 0;
        memcpy(qi, b->q0, (size_t)b->nq * sizeof *qi);
        if (b->joint == MECH_JOINT_FLOATING) {
            double phi[3] = { urand(r, -0.01, 0.01), urand(r, -0.01, 0.01), urand(r, -0.01, 0.01) }, dq[4], o[4];
            quat_from_rotvec(phi, dq);
            quat_mul(qi, dq, o);
            memcpy(qi, o, sizeof o);
            for (int c = 4; c < 7; c++) qi[c] += urand(r, -0.006, 0.006);
        } else if (b->nq == 1) {
            qi[0] += roller_of(m, i) ? urand(r, -M_PI, M_PI) : shoe ? urand(r, -0.002, 0.002) : urand(r, -0.01, 0.01);
        }
        for (int c = 0; c < b->nv; c++) vi[c] = urand(r, -1, 1);
    }
}

/* Lean kinematics vs the dense 6x6 pass: R, origin, w, and the spatial
 * velocity's linear part v_O = pd - w x p. */
static void check_kinematics(const mech_model *m, const char *name, int contact)
{
    dense_ws *ws = dense_ws_new(m);
    mech_body_kin *k = calloc((size_t)m->nb, sizeof *k), *kj = calloc((size_t)m->nb, sizeof *kj);
    mech_kin_joint *joints = calloc((size_t)m->nb, sizeof *joints);
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    mech_rng r;
    mech_rng_seed(&r, 3);
    mech_kin_joints(m, joints);
    double err = 0;
    int same = 1;
    for (int t = 0; t < 200; t++) {
        if (contact && t % 2) near_design(m, &r, q, qd);
        else mech_sample_state(m, &r, q, qd, NULL, NULL);
        dense_world_kinematics(m, ws, q, qd);
        mech_world_kinematics(m, q, qd, k);
        mech_world_kinematics_joints(m, joints, q, qd, kj);
        same &= memcmp(k, kj, (size_t)m->nb * sizeof *k) == 0;
        for (int i = 0; i < m->nb; i++) {
            const double *X = ws->Xw[i], *v = ws->vw[i];
            double wxp[3], scale = 1 + v3_norm(k[i].p);
            v3_cross(k[i].w, k[i].p, wxp);
            for (int a = 0; a < 3; a++) {
                for (int c = 0; c < 3; c++) err = fmax(err, fabs(X[6 * a + c] - k[i].R[3 * a + c]));
                err = fmax(err, fabs(v[a] - k[i].w[a]) / scale);
                err = fmax(err, fabs(v[3 + a] - (k[i].pd[a] - wxp[a])) / (scale * (1 + v3_norm(k[i].w))));
            }
            /* origin: the lower-left block of 0_X_i is (p x) R (RBDA eq. 2.24 inverted) */
            double pxR[9];
            for (int a = 0; a < 9; a++) pxR[a] = X[6 * (3 + a / 3) + a % 3];
            double pr[9], Rt[9];
            m3_transpose(k[i].R, Rt);
            m3_mul(pxR, Rt, pr); /* = p x */
            err = fmax(err, fabs(pr[7] - k[i].p[0]) / scale);
            err = fmax(err, fabs(pr[2] - k[i].p[1]) / scale);
            err = fmax(err, fabs(pr[3] - k[i].p[2]) / scale);
        }
    }
    char buf[96];
    snprintf(buf, sizeof buf, "%s: lean kinematics vs dense_world_kinematics", name);
    report(buf, err, 1e-12);
    snprintf(buf, sizeof buf, "%s: kinematics with the joints found once: bitwise the same", name);
    require(buf, same);
    free(q);
    free(qd);
    free(k);
    free(kj);
    free(joints);
    dense_ws_free(ws);
}

/* Stage checks on a model with a band or a ground. */
static void check_stage(const mech_model *m, const char *name)
{
    contact_state *cs = contact_new(m);
    mech_body_kin *k = calloc((size_t)m->nb, sizeof *k), *k0 = calloc((size_t)m->nb, sizeof *k0);
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    double *fe = calloc(6 * (size_t)m->nb + 1, sizeof *fe), *fb = calloc(6 * (size_t)m->nb + 1, sizeof *fb);
    double *fg = calloc(6 * (size_t)m->nb + 1, sizeof *fg), *f2 = calloc(6 * (size_t)m->nb + 1, sizeof *f2);
    track_band *bands = calloc((size_t)m->ntrack + 1, sizeof *bands);
    for (int i = 0; i < m->nb; i++) memcpy(q + m->bodies[i].qidx, m->bodies[i].q0, (size_t)m->bodies[i].nq * sizeof *q);
    mech_world_kinematics(m, q, NULL, k0);
    for (int t = 0; t < m->ntrack; t++) track_band_init(&bands[t], m, &m->tracks[t], k0);
    char buf[128];

    /* design pose: no pin inside an end roller */
    double worst = -INFINITY;
    for (int t = 0; t < m->ntrack; t++)
        for (int e = 0; e < bands[t].nend; e++)
            for (int s = 0; s < m->tracks[t].nshoe; s++) {
                double d[3];
                track_pin_in_roller(&bands[t], k0, s, e, d);
                worst = fmax(worst, bands[t].pin[e].P.R - hypot(d[0], d[2]));
            }
    if (m->ntrack) {
        printf("%s: design pose, deepest pin %.4g m inside its end roller (negative: clear)\n", name, worst);
        snprintf(buf, sizeof buf, "%s: no penetration at the design pose (end rollers), m", name);
        report(buf, fmax(worst, 0), 1e-9);
    }

    mech_rng r;
    mech_rng_seed(&r, 1000);
    double band_sum = 0, ground_err = 0, torque_err = 0;
    int stray = 0, nondet = 0, loaded_pairs = 0, loaded_corners = 0, stray_body = -1;
    ground_stage gs;
    if (m->ground.type != MECH_GROUND_NONE) ground_stage_init(&gs, m);
    for (int trial = 0; trial < 1000; trial++) {
        near_design(m, &r, q, qd);
        mech_world_kinematics(m, q, qd, k);
        double dt = trial % 2 ? 1e-4 : 0;
        /* band: exact pairs sum to zero */
        memset(fb, 0, 6 * (size_t)m->nb * sizeof *fb);
        for (int t = 0; t < m->ntrack; t++) track_band_forces(&bands[t], k, dt, fb);
        double tot[6] = { 0 }, scale = 0;
        for (int i = 0; i < m->nb; i++)
            for (int c = 0; c < 6; c++) {
                tot[c] += fb[6 * i + c];
                scale += fabs(fb[6 * i + c]);
            }
        for (int c = 0; c < 6; c++) band_sum = fmax(band_sum, fabs(tot[c]) / fmax(scale, 1));
        for (int i = 0; i < m->nb; i++)
            if (fb[6 * i + 5] != 0 && shoe_band(m, i) >= 0) loaded_pairs++;
        /* sprocket torque: about each drive axle, from fext vs summed over its pins */
        for (int t = 0; t < m->ntrack; t++)
            for (int e = 0; e < bands[t].nend; e++) {
                const track_pin_roller *pr = &bands[t].pin[e];
                if (!pr->P.drive) continue;
                const mech_body_kin *kr = &k[pr->body];
                double ax[3] = { kr->R[1], kr->R[4], kr->R[7] }, cxF[3], *w = fb + 6 * pr->body;
                v3_cross(kr->p, w + 3, cxF);
                double from_fext = 0, direct = 0, mag = 1;
                for (int c = 0; c < 3; c++) from_fext += ax[c] * (w[c] - cxF[c]);
                for (int s = 0; s < m->tracks[t].nshoe; s++) {
                    const mech_body_kin *ks = &k[m->tracks[t].shoe0 + s];
                    double d[3], vr[3], uw[3], u[3], f[3], F[3], rr[3], tq[3];
                    track_pin_in_roller(&bands[t], k, s, e, d);
                    mech_point_velocity(kr, ks->p, vr);
                    for (int c = 0; c < 3; c++) uw[c] = ks->pd[c] - vr[c];
                    m3_tmulv(kr->R, uw, u);
                    pin_force(&pr->P, d, u, dt, f);
                    m3_mulv(kr->R, f, F);
                    for (int c = 0; c < 3; c++) {
                        rr[c] = ks->p[c] - kr->p[c];
                        F[c] = -F[c];
                    }
                    v3_cross(rr, F, tq);
                    direct += v3_dot(ax, tq);
                    mag += fabs(v3_dot(ax, tq));
                }
                torque_err = fmax(torque_err, fabs(from_fext - direct) / mag);
            }
        /* the whole stage; ground = stage - band */
        memset(fe, 0, 6 * (size_t)m->nb * sizeof *fe);
        contact_reset(cs); /* the same state, anchors included */
        contact_forces(cs, m, q, qd, dt, fe);
        memset(f2, 0, 6 * (size_t)m->nb * sizeof *f2);
        contact_reset(cs);
        contact_forces(cs, m, q, qd, dt, f2);
        if (memcmp(fe, f2, 6 * (size_t)m->nb * sizeof *fe)) nondet++;
        if (m->ground.type == MECH_GROUND_NONE) continue;
        /* independent ground sum: corners, their velocities and the plane law written again */
        memset(fg, 0, 6 * (size_t)m->nb * sizeof *fg);
        double react[3] = { 0 }, rep[3];
        for (int t = 0; t < m->ntrack; t++) {
            const mech_track *tr = &m->tracks[t];
            for (int s = 0; s < tr->nshoe; s++) {
                int b = tr->shoe0 + s;
                const mech_body_kin *ks = &k[b];
                for (int c = 0; c < 4; c++) {
                    double xl[3] = { 0.5 * tr->link + (c % 2 ? 0.5 : -0.5) * tr->pad_length,
                                     (c / 2 ? 0.5 : -0.5) * tr->pad_width, tr->pad_z },
                           p[3], u[3], F[3];
                    m3_mulv(ks->R, xl, p);
                    for (int j = 0; j < 3; j++) p[j] += ks->p[j];
                    double rr[3] = { p[0] - ks->p[0], p[1] - ks->p[1], p[2] - ks->p[2] }, wr[3];
                    v3_cross(ks->w, rr, wr);
                    for (int j = 0; j < 3; j++) u[j] = ks->pd[j] + wr[j];
                    double h, hx, hy;
                    terrain_eval(&m->ground, p[0], p[1], &h, &hx, &hy);
                    double gap = h - p[2];
                    if (gap <= 0) continue;
                    double n[3] = { -hx, -hy, 1 }, gd = -(n[0] * u[0] + n[1] * u[1] + n[2] * u[2]);
                    double f = gs.P.kn * gap + gs.P.c * fmin(gap / CONTACT_RAMP, 1) * gd;
                    if (f <= 0) continue;
                    loaded_corners++;
                    double nn = sqrt(n[0] * n[0] + n[1] * n[1] + 1), un = (n[0] * u[0] + n[1] * u[1] + u[2]) / nn, ut[3];
                    for (int j = 0; j < 3; j++) ut[j] = u[j] - un * n[j] / nn;
                    double kk =
                        gs.P.mu * f * nn / sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2] + gs.P.veps * gs.P.veps);
                    kk = kk / (1 + kk * dt / gs.P.m_eff);
                    for (int j = 0; j < 3; j++) F[j] = f * n[j] - kk * ut[j];
                    double mo[3];
                    v3_cross(p, F, mo);
                    for (int j = 0; j < 3; j++) {
                        fg[6 * b + j] += mo[j];
                        fg[6 * b + 3 + j] += F[j];
                        react[j] += F[j];
                    }
                }
            }
        }
        double gscale = 1;
        for (int i = 0; i < 6 * m->nb; i++) gscale = fmax(gscale, fabs(fg[i]));
        for (int i = 0; i < m->nb; i++)
            for (int c = 0; c < 6; c++) {
                double g = fe[6 * i + c] - fb[6 * i + c];
                if (m->ground.friction == MECH_FRICTION_REGULARIZED)
                    ground_err = fmax(ground_err, fabs(g - fg[6 * i + c]) / gscale);
                if (g != 0 && shoe_band(m, i) < 0) {
                    stray++;
                    stray_body = i;
                }
            }
        contact_ground_reaction(cs, rep);
        if (m->ground.friction == MECH_FRICTION_REGULARIZED)
            for (int j = 0; j < 3; j++) ground_err = fmax(ground_err, fabs(rep[j] - react[j]) / gscale);
    }
    if (m->ntrack) {
        printf("%s: %d loaded shoe wrenches over 1000 states\n", name, loaded_pairs);
        snprintf(buf, sizeof buf, "%s: band wrenches sum to zero (relative)", name);
        report(buf, band_sum, 1e-13);
        require("band contact is exercised (loaded pairs)", loaded_pairs > 1000);
        snprintf(buf, sizeof buf, "%s: sprocket torque from fext vs summed directly", name);
        report(buf, torque_err, 1e-12);
    }
    snprintf(buf, sizeof buf, "%s: bitwise determinism at a repeated state", name);
    require(buf, nondet == 0);
    if (m->ground.type != MECH_GROUND_NONE && m->ntrack) {
        printf("%s: %d loaded pad corners over 1000 states\n", name, loaded_corners);
        if (m->ground.friction == MECH_FRICTION_REGULARIZED) {
            snprintf(buf, sizeof buf, "%s: ground wrench and reaction vs an independent sum", name);
            report(buf, ground_err, 1e-12);
        }
        snprintf(buf, sizeof buf, "%s: ground wrench lands only on shoes", name);
        if (stray) printf("  stray ground wrench on body %d\n", stray_body);
        require(buf, stray == 0);
        require("ground contact is exercised (loaded corners)", loaded_corners > 1000);
    }
    /* Elastic force = -grad of the stage potential: translate every shoe
     * (each floating shoe parented to the base carries its chain) along each
     * base axis at zero velocity, dt = 0, anchors at rest; the force summed
     * over the shoes (band and ground) is -dU/dx. */
    if (m->ntrack) {
        double werr = 0;
        int tested = 0;
        double *z = calloc((size_t)m->nv + 1, sizeof *z), *qp = calloc((size_t)m->nq + 1, sizeof *qp);
        mech_rng_seed(&r, 2024);
        for (int trial = 0; trial < 60; trial++) {
            near_design(m, &r, q, qd);
            memset(fe, 0, 6 * (size_t)m->nb * sizeof *fe);
            contact_reset(cs);
            contact_forces(cs, m, q, z, 0, fe);
            double F[3] = { 0, 0, 0 }, mag = 1;
            for (int i = 0; i < m->nb; i++)
                if (shoe_band(m, i) >= 0)
                    for (int c = 0; c < 3; c++) {
                        F[c] += fe[6 * i + 3 + c];
                        mag += fabs(fe[6 * i + 3 + c]);
                    }
            tested++;
            for (int c = 0; c < 3; c++) {
                const double h = 1e-7;
                double U[2];
                for (int sgn = 0; sgn < 2; sgn++) {
                    memcpy(qp, q, (size_t)m->nq * sizeof *q);
                    for (int i = 0; i < m->nb; i++)
                        if (shoe_band(m, i) >= 0 && m->bodies[i].parent < 0 && m->bodies[i].joint == MECH_JOINT_FLOATING)
                            qp[m->bodies[i].qidx + 4 + c] += sgn ? -h : h;
                    U[sgn] = contact_potential(cs, m, qp);
                }
                werr = fmax(werr, fabs(F[c] + (U[0] - U[1]) / (2 * h)) / mag);
            }
        }
        free(z);
        free(qp);
        snprintf(buf, sizeof buf, "%s: force on the shoes = -grad U (band translated, %d states)", name, tested);
        report(buf, werr, 1e-6);
    }
    snprintf(buf, sizeof buf, "%s: accuracy step %.4g s (%d samples per contact period)", name,
             mech_model_contact_step(m), MECH_CONTACT_SAMPLES);
    require(buf, mech_model_contact_step(m) > 0);
    free(q);
    free(qd);
    free(fe);
    free(fb);
    free(fg);
    free(f2);
    free(k);
    free(k0);
    free(bands);
    contact_free(cs);
}

/* Tires: the tire wrench lands only on wheels (its forces go nowhere
 * else); at zero velocity (dt 0, slips at rest) the vertical force on the
 * wheels is -dU/dz of the stage potential with the vehicle lowered into the
 * ground by 5 to 60 mm (every floating body on the base moved together). */
static void check_tires(const mech_model *model, const char *name)
{
    /* The tires alone: a model's bump stops (tests/contact/test_stop.c) also load its chassis and arms. */
    mech_model alone = *model;
    alone.nstop = 0;
    const mech_model *m = &alone;
    contact_state *cs = contact_new(m);
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    double *z = calloc((size_t)m->nv + 1, sizeof *z), *qp = calloc((size_t)m->nq + 1, sizeof *qp);
    double *fe = calloc(6 * (size_t)m->nb + 1, sizeof *fe);
    mech_rng r;
    mech_rng_seed(&r, 77);
    int stray = 0, loaded = 0;
    double werr = 0;
    for (int trial = 0; trial < 200; trial++) {
        near_design(m, &r, q, qd);
        double drop = urand(&r, 0.005, 0.06);
        for (int i = 0; i < m->nb; i++)
            if (m->bodies[i].parent < 0 && m->bodies[i].joint == MECH_JOINT_FLOATING) q[m->bodies[i].qidx + 6] -= drop;
        memset(fe, 0, 6 * (size_t)m->nb * sizeof *fe);
        contact_reset(cs);
        contact_forces(cs, m, q, qd, trial % 2 ? 1e-3 : 0, fe);
        for (int i = 0; i < m->nb; i++) {
            int wheel = 0;
            for (int t = 0; t < m->ntire; t++) wheel |= m->tires[t].body == i;
            for (int c = 0; c < 6; c++) stray += !wheel && fe[6 * i + c] != 0;
        }
        memset(fe, 0, 6 * (size_t)m->nb * sizeof *fe);
        contact_reset(cs);
        contact_forces(cs, m, q, z, 0, fe);
        double Fz = 0, mag = 1, U[2];
        for (int t = 0; t < m->ntire; t++) {
            Fz += fe[6 * m->tires[t].body + 5];
            mag += fabs(fe[6 * m->tires[t].body + 5]);
        }
        loaded += Fz > 0;
        const double h = 1e-7;
        for (int sgn = 0; sgn < 2; sgn++) {
            memcpy(qp, q, (size_t)m->nq * sizeof *q);
            for (int i = 0; i < m->nb; i++)
                if (m->bodies[i].parent < 0 && m->bodies[i].joint == MECH_JOINT_FLOATING)
                    qp[m->bodies[i].qidx + 6] += sgn ? -h : h;
            U[sgn] = contact_potential(cs, m, qp);
        }
        werr = fmax(werr, fabs(Fz + (U[0] - U[1]) / (2 * h)) / mag);
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s: tire wrench lands only on wheels (200 states)", name);
    require(buf, stray == 0);
    snprintf(buf, sizeof buf, "%s: tires loaded in every lowered state", name);
    require(buf, loaded == 200);
    snprintf(buf, sizeof buf, "%s: vertical tire force = -dU/dz (vehicle lowered)", name);
    report(buf, werr, 1e-6);
    free(q);
    free(qd);
    free(z);
    free(qp);
    free(fe);
    contact_free(cs);
}

/* A model without a band or a ground: the stage adds nothing. */
static void check_no_contact(const mech_model *m, const char *name)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s: no band, no ground: mech_model_has_contact = 0", name);
    require(buf, !mech_model_has_contact(m));
    contact_state *cs = contact_new(m);
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    double *fe = calloc(6 * (size_t)m->nb + 1, sizeof *fe);
    mech_rng r;
    mech_rng_seed(&r, 9);
    int nonzero = 0;
    for (int t = 0; t < 100; t++) {
        mech_sample_state(m, &r, q, qd, NULL, NULL);
        contact_forces(cs, m, q, qd, 1e-4, fe);
        for (int i = 0; i < 6 * m->nb; i++) nonzero += fe[i] != 0;
    }
    snprintf(buf, sizeof buf, "%s: zero contact force at 100 random states", name);
    require(buf, nonzero == 0 && contact_potential(cs, m, q) == 0 && mech_model_contact_step(m) == 0);
    free(q);
    free(qd);
    free(fe);
    contact_free(cs);
}

static void run_model(mech_model *m, const char *name)
{
    int contact = mech_model_has_contact(m);
    check_kinematics(m, name, contact);
    if (contact) check_stage(m, name);
    else check_no_contact(m, name);
    if (m->ntire) check_tires(m, name);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "synthetic")) {
        mech_model *m = synthetic_model();
        run_model(m, "synthetic");
        m->ground.friction = MECH_FRICTION_ANCHORED;
        check_stage(m, "synthetic (anchored ground)");
        mech_model_free(m);
    } else if (argc >= 3 && !strcmp(argv[1], "model")) {
        mech_model *m = test_load_model(argv[2]);
        const char *slash = strrchr(argv[2], '/');
        run_model(m, slash ? slash + 1 : argv[2]);
        mech_model_free(m);
    } else {
        fprintf(stderr, "usage: test_contact_stage synthetic | model FILE\n");
        return 2;
    }
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
