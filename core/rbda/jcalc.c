/* jcalc.c — see jcalc.h.  Equation numbers are RBDA (Featherstone 2008). */
#include "rbda/jcalc.h"

#include <string.h>

#include "spatial/mech_sincos.h"

void body_xtree(const mech_body *b, double X[36])
{
    double E[9];
    m3_transpose(b->rot, E);
    plux(E, b->pos, X);
}

/* RBDA Table 4.1 (jcalc), with E = R^T for the physical rotation R. */
void body_jcalc(const mech_body *b, const double *q, double XJ[36], double *S)
{
    static const double zero[3] = { 0, 0, 0 };
    double R[9], E[9], r[3];
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE:
        rot_axis_angle(b->axis, q[0], R);
        m3_transpose(R, E);
        plux(E, zero, XJ);
        S[0] = b->axis[0];
        S[1] = b->axis[1];
        S[2] = b->axis[2];
        S[3] = S[4] = S[5] = 0.0;
        break;
    case MECH_JOINT_PRISMATIC:
        m3_identity(E);
        r[0] = b->axis[0] * q[0];
        r[1] = b->axis[1] * q[0];
        r[2] = b->axis[2] * q[0];
        plux(E, r, XJ);
        S[0] = S[1] = S[2] = 0.0;
        S[3] = b->axis[0];
        S[4] = b->axis[1];
        S[5] = b->axis[2];
        break;
    case MECH_JOINT_FLOATING:
        quat_to_rot(q, R);
        m3_transpose(R, E);
        plux(E, q + 4, XJ);
        m6_identity(S);
        break;
    case MECH_JOINT_FIXED: m6_identity(XJ); break;
    }
}

void body_jcalc_normalized(const mech_body *b, const double *q, double XJ[36], double *S)
{
    double qn[7];
    if (b->joint != MECH_JOINT_FLOATING) {
        body_jcalc(b, q, XJ, S);
        return;
    }
    quat_normalize(q, qn);
    qn[4] = q[4];
    qn[5] = q[5];
    qn[6] = q[6];
    body_jcalc(b, qn, XJ, S);
}

/* ---- efficient forms (spatial.h, RBDA §2.8) ---- */

static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

void sxform_xtree(const mech_body *b, sxform *X)
{
    m3_transpose(b->rot, X->E);
    memcpy(X->r, b->pos, sizeof X->r);
    X->rot = memcmp(X->E, I3, sizeof I3) ? SXFORM_ROT_GENERAL : SXFORM_ROT_NONE;
}

/* Table 4.1 with E = R^T; revolute by Rodrigues, R = c 1 + s ax + (1 - c) a a^T. */
void sxform_jcalc(const mech_body *b, const double *q, sxform *XJ)
{
    const double *a = b->axis;
    XJ->rot = SXFORM_ROT_NONE;
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE: {
        double s, c;
        mech_sincos(q[0], &s, &c);
        double t = 1.0 - c, ta0 = t * a[0], ta1 = t * a[1], ta2 = t * a[2];
        double *E = XJ->E;
        E[0] = c + ta0 * a[0];
        E[1] = ta0 * a[1] + s * a[2];
        E[2] = ta0 * a[2] - s * a[1];
        E[3] = ta0 * a[1] - s * a[2];
        E[4] = c + ta1 * a[1];
        E[5] = ta1 * a[2] + s * a[0];
        E[6] = ta0 * a[2] + s * a[1];
        E[7] = ta1 * a[2] - s * a[0];
        E[8] = c + ta2 * a[2];
        XJ->r[0] = XJ->r[1] = XJ->r[2] = 0.0;
        XJ->rot = a[1] == 0.0 && a[2] == 0.0 ? 0
                : a[2] == 0.0 && a[0] == 0.0 ? 1
                : a[0] == 0.0 && a[1] == 0.0 ? 2
                                             : SXFORM_ROT_GENERAL;
        break;
    }
    case MECH_JOINT_PRISMATIC:
        m3_copy(I3, XJ->E);
        XJ->r[0] = a[0] * q[0];
        XJ->r[1] = a[1] * q[0];
        XJ->r[2] = a[2] * q[0];
        break;
    case MECH_JOINT_FLOATING: {
        double qn[4], R[9];
        quat_normalize(q, qn);
        quat_to_rot(qn, R);
        m3_transpose(R, XJ->E);
        memcpy(XJ->r, q + 4, sizeof XJ->r);
        XJ->rot = SXFORM_ROT_GENERAL;
        break;
    }
    case MECH_JOINT_FIXED:
        m3_copy(I3, XJ->E);
        XJ->r[0] = XJ->r[1] = XJ->r[2] = 0.0;
        break;
    }
}
