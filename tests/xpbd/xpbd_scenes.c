/* xpbd_scenes.c — see xpbd_scenes.h. */
#include "xpbd_scenes.h"

#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

/* Solid cylinder along body z: mass m, length l, radius r, about the CoM. */
static void rod_inertia(double m, double l, double r, double I[9])
{
    memset(I, 0, 9 * sizeof(double));
    I[0] = I[4] = m * (3 * r * r + l * l) / 12.0;
    I[8] = 0.5 * m * r * r;
}

static void axis_rot(int axis, double angle, double R[9])
{
    double a[3] = { 0, 0, 0 };
    a[axis] = 1.0;
    rot_axis_angle(a, angle, R);
}

int xpbd_scene_triple_pendulum(xpbd_model *m)
{
    const double L = 1.0, mass = 1.0, radius = 0.05, angle = 80.0 * PI / 180.0;
    if (xpbd_model_alloc(m, 3, 3)) return -1;
    m->params = (xpbd_params){ .dt = 0.01, .substeps = 10, .iterations = 1, .gravity = { 0, 0, -9.81 } };
    /* Link frames: z from the CoM towards the upper joint, y = world y. */
    double Rl[9], Rx[9], down[3] = { sin(angle), 0, -cos(angle) };
    axis_rot(1, -angle, Rl);
    axis_rot(0, -PI / 2, Rx); /* joint frame: e3 → body (and world) y */
    for (int i = 0; i < 3; i++) {
        xpbd_body *b = &m->bodies[i];
        b->mass = mass;
        rod_inertia(mass, L, radius, b->inertia);
        for (int k = 0; k < 3; k++) b->p[k] = (i + 0.5) * L * down[k];
        memcpy(b->R, Rl, sizeof Rl);

        xpbd_joint *j = &m->joints[i];
        j->type = XPBD_REVOLUTE;
        j->body1 = i - 1;
        j->body2 = i;
        if (i > 0) j->r1[2] = -0.5 * L;
        memcpy(j->R1, Rx, sizeof Rx);
        j->r2[2] = 0.5 * L;
        memcpy(j->R2, Rx, sizeof Rx);
    }
    char err[128];
    return xpbd_model_finalize(m, err, sizeof err);
}

/* 3-RPS geometry (chosen): base radius 0.4 m, platform radius 0.2 m, home
 * height 0.6 m; each leg is a 0.4 m lower link on a revolute joint whose axis
 * is tangent to the base circle and a 0.4 m upper link sliding in it. */
static const double RB = 0.4, RP = 0.2, H0 = 0.6, LEG = 0.4;

void xpbd_3rps_target(double t, int joint, double target[6], void *user)
{
    (void)user;
    if (joint != XPBD_3RPS_TARGET_JOINT) return;
    double s1 = sin(0.25 * PI * t), s2 = sin(0.3 * PI * t), s3 = sin(0.5 * PI * t);
    memset(target, 0, 6 * sizeof(double));
    target[2] = H0 + 0.1 * s1 * s1; /* platform height */
    target[3] = 0.2 * s2 * s2;      /* tilt: x and y of R̄1 ⊟ R̄2 */
    target[4] = -0.15 * s3 * s3;
}

int xpbd_scene_3rps(xpbd_model *m)
{
    /* bodies: 0 platform, 1+2i lower leg i, 2+2i upper leg i;
     * joints: 3i revolute, 3i+1 prismatic, 3i+2 spherical, 9 target. */
    if (xpbd_model_alloc(m, 7, 10)) return -1;
    m->params = (xpbd_params){ .dt = 0.01, .substeps = 10, .iterations = 1, .gravity = { 0, 0, -9.81 } };
    xpbd_body *plat = &m->bodies[0];
    plat->mass = 2.0;
    plat->inertia[0] = plat->inertia[4] = plat->mass * 0.25 * 0.25 / 4.0;
    plat->inertia[8] = plat->mass * 0.25 * 0.25 / 2.0;
    plat->p[2] = H0;

    double Rx[9];
    axis_rot(0, -PI / 2, Rx);
    for (int i = 0; i < 3; i++) {
        double phi = PI / 2 + 2 * PI * i / 3;
        double er[3] = { cos(phi), sin(phi), 0 }, et[3] = { -sin(phi), cos(phi), 0 };
        double B[3], P[3], a[3], x[3], len = 0;
        for (int k = 0; k < 3; k++) {
            B[k] = RB * er[k];
            P[k] = RP * er[k] + (k == 2 ? H0 : 0);
            a[k] = P[k] - B[k];
            len += a[k] * a[k];
        }
        len = sqrt(len);
        for (int k = 0; k < 3; k++) a[k] /= len;
        v3_cross(et, a, x);
        double Rleg[9] = { x[0], et[0], a[0], x[1], et[1], a[1], x[2], et[2], a[2] };

        xpbd_body *lo = &m->bodies[1 + 2 * i], *up = &m->bodies[2 + 2 * i];
        lo->mass = 0.5;
        up->mass = 0.3;
        rod_inertia(lo->mass, LEG, 0.02, lo->inertia);
        rod_inertia(up->mass, LEG, 0.015, up->inertia);
        for (int k = 0; k < 3; k++) {
            lo->p[k] = B[k] + 0.5 * LEG * a[k];
            up->p[k] = P[k] - 0.5 * LEG * a[k];
        }
        memcpy(lo->R, Rleg, sizeof Rleg);
        memcpy(up->R, Rleg, sizeof Rleg);

        xpbd_joint *rev = &m->joints[3 * i], *pri = &m->joints[3 * i + 1], *sph = &m->joints[3 * i + 2];
        rev->type = XPBD_REVOLUTE;
        rev->body1 = -1;
        rev->body2 = 1 + 2 * i;
        memcpy(rev->r1, B, sizeof B);
        m3_mul(Rleg, Rx, rev->R1);
        rev->r2[2] = -0.5 * LEG;
        memcpy(rev->R2, Rx, sizeof Rx);

        pri->type = XPBD_PRISMATIC;
        pri->body1 = 1 + 2 * i;
        pri->body2 = 2 + 2 * i;
        pri->r2[2] = -(len - LEG);

        sph->type = XPBD_SPHERICAL;
        sph->body1 = 2 + 2 * i;
        sph->body2 = 0;
        sph->r1[2] = 0.5 * LEG;
        memcpy(sph->r2, P, sizeof P);
        sph->r2[2] = 0;
        memcpy(sph->R2, Rleg, sizeof Rleg); /* frames coincide at home */
    }
    xpbd_joint *tg = &m->joints[XPBD_3RPS_TARGET_JOINT];
    tg->type = XPBD_TARGET;
    tg->body1 = -1;
    tg->body2 = 0;
    tg->target_rows = 1u << 2 | 1u << 3 | 1u << 4;
    tg->target[2] = H0;
    char err[128];
    return xpbd_model_finalize(m, err, sizeof err);
}
