/* test_stop.c — bump stops on tsdas (core/contact/stop.c) against their
 * closed form, after Project Chrono's HMMWV shock (HMMWV_ShockForce in its
 * HMMWV_DoubleWishbone; docs/contact.md "Stops"): the shock's whole damping
 * force is R ldot with R the bump rate while it compresses at or below the
 * bump length, the rebound rate while it extends at or above the rebound
 * length, and the tsda's own c in between; the stop adds (R - c) ldot.
 *   law    over lengths and rates on both sides and inside, the stop's
 *          tension plus c ldot against R ldot (inside: exactly zero);
 *   stage  two bodies joined by the tsda: the forces in fext equal and
 *          opposite along the line between the two points, their size the
 *          law at the length and rate found by finite differences of the
 *          points (not the stage's own kinematics). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/stop.h"
#include "contact_gates.h"
#include "mech/model.h"
#include "rbda/kinematics.h"

/* The HMMWV front shock (Project Chrono: HMMWV_DoubleWishboneFront.json's
 * linear coefficient, HMMWV_DoubleWishbone.cpp's bump stop rates and lengths). */
#define C_TSDA 19015.5692
#define BUMP_L 0.324104
#define BUMP_C 5896.518
#define REB_L 0.418592
#define REB_C 60068.482

static void law(void)
{
    mech_stop s;
    memset(&s, 0, sizeof s);
    s.bump = s.rebound = 1;
    s.bump_length = BUMP_L, s.bump_rate = BUMP_C;
    s.rebound_length = REB_L, s.rebound_rate = REB_C;
    double worst = 0, inside = 0;
    for (int i = 0; i <= 40; i++) {
        double l = 0.30 + 0.14 * i / 40.0;
        for (int j = -10; j <= 10; j++) {
            double v = 0.1 * j;
            double R = C_TSDA;
            if (v < 0 && l <= BUMP_L) R = BUMP_C;
            if (v > 0 && l >= REB_L) R = REB_C;
            double total = stop_tension(&s, C_TSDA, l, v) + C_TSDA * v;
            worst = fmax(worst, fabs(total - R * v) / (REB_C * 1.0));
            if (l > BUMP_L && l < REB_L) inside = fmax(inside, fabs(stop_tension(&s, C_TSDA, l, v)));
        }
    }
    report("law: tension + c ldot = R ldot, both sides (per 1 m/s x rebound rate)", worst, 1e-14);
    report("law: inside the range, the stop's tension (N)", inside, 0);
    /* One side only: the other never engages. */
    s.rebound = 0;
    report("law: no rebound side, extended past its length (N)", fabs(stop_tension(&s, C_TSDA, 0.5, 1.0)), 0);
    require("law: the bump side still engages", stop_tension(&s, C_TSDA, 0.3, -1.0) != 0);
}

/* Two bodies, a revolute and a prismatic, the tsda between a point on each. */
static const char *pair_model =
    "body arm\n parent base\n joint revolute y\n mass 2\n inertia 0.1 0.1 0.1\n fext 1\nend\n"
    "body slider\n parent base\n joint prismatic z\n pos 0.3 0 0\n mass 3\n"
    " inertia 0.1 0.1 0.1\n fext 1\nend\n"
    "poi pa arm 0.2 0.05 0.1\npoi pb slider 0.05 -0.02 0.3\n"
    "tsda shock\n from pa\n to pb\n k 0\n c 19015.5692\n l0 0\nend\n"
    "stop shock_stop\n tsda shock\n bump 0.324104 5896.518\n rebound 0.418592 60068.482\nend\n";

static void point(const mech_model *m, const mech_body_kin *k, int poi, double x[3])
{
    const mech_poi *p = &m->pois[poi];
    const mech_body_kin *b = &k[p->body];
    for (int i = 0; i < 3; i++)
        x[i] = b->p[i] + b->R[3 * i] * p->pos[0] + b->R[3 * i + 1] * p->pos[1] + b->R[3 * i + 2] * p->pos[2];
}

static double length_at(const mech_model *m, const double *q, double xa[3], double xb[3])
{
    mech_body_kin k[2];
    mech_world_kinematics(m, q, NULL, k);
    point(m, k, m->tsdas[0].poi_a, xa);
    point(m, k, m->tsdas[0].poi_b, xb);
    return sqrt(pow(xb[0] - xa[0], 2) + pow(xb[1] - xa[1], 2) + pow(xb[2] - xa[2], 2));
}

static void stage(void)
{
    mech_error err;
    mech_model *m = mech_model_parse(pair_model, strlen(pair_model), "pair", &err);
    if (!m) {
        printf("parse: %d:%d: %s\n", err.line, err.col, err.message);
        failures++;
        return;
    }
    contact_state *c = contact_new(m);
    double worst = 0, balance = 0;
    int engaged[3] = { 0, 0, 0 };
    /* Lengths through the bump side, the middle and the rebound side; both signs of ldot. */
    const double slide[] = { 0.0, 0.08, 0.15 }, rate[] = { -0.7, 0.4 };
    for (size_t a = 0; a < sizeof slide / sizeof *slide; a++)
        for (size_t r = 0; r < 2; r++) {
            double q[2] = { 0.3, slide[a] }, qd[2] = { 0.5 * rate[r], rate[r] }, fext[12] = { 0 };
            contact_forces(c, m, q, qd, 0, fext);
            double xa[3], xb[3], h = 1e-6, qp[2], qm[2], ya[3], yb[3];
            double l = length_at(m, q, xa, xb);
            for (int i = 0; i < 2; i++) qp[i] = q[i] + h * qd[i], qm[i] = q[i] - h * qd[i];
            double ldot = (length_at(m, qp, ya, yb) - length_at(m, qm, ya, yb)) / (2 * h);
            double f = stop_tension(&m->stops[0], m->tsdas[0].c, l, ldot);
            engaged[f == 0 ? 1 : (l < 0.37 ? 0 : 2)]++;
            double scale = fmax(1.0, fabs(f));
            for (int i = 0; i < 3; i++) {
                double u = (xb[i] - xa[i]) / l;
                worst = fmax(worst, fabs(fext[3 + i] - f * u) / scale);
                worst = fmax(worst, fabs(fext[9 + i] + f * u) / scale);
                balance = fmax(balance, fabs(fext[3 + i] + fext[9 + i]) / scale);
            }
            /* Moments: xa x F on the arm, -xb x F on the slider; their sum vanishes along the line. */
            double na[3] = { xa[1] * fext[5] - xa[2] * fext[4], xa[2] * fext[3] - xa[0] * fext[5],
                             xa[0] * fext[4] - xa[1] * fext[3] };
            for (int i = 0; i < 3; i++) {
                worst = fmax(worst, fabs(fext[i] - na[i]) / scale);
                balance = fmax(balance, fabs(fext[i] + fext[6 + i]) / scale);
            }
        }
    report("stage: fext against the law at finite-difference l, ldot (rel.)", worst, 1e-6);
    report("stage: the two wrenches' sum about the origin (rel.)", balance, 1e-12);
    require("stage: cases on the bump side, inside and the rebound side", engaged[0] && engaged[1] && engaged[2]);
    contact_free(c);
    mech_model_free(m);
}

int main(void)
{
    law();
    stage();
    return failures ? 1 : 0;
}
