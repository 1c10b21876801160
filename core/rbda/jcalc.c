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
    case MECH_JOINT_SPHERICAL: /* S = [1; 0], 6 x 3 */
        quat_to_rot(q, R);
        m3_transpose(R, E);
        plux(E, zero, XJ);
        for (int k = 0; k < 18; k++) S[k] = k < 9 && k % 4 == 0;
        break;
    case MECH_JOINT_CYLINDRICAL: /* S = [a 0; 0 a], 6 x 2; the rotation keeps r on its axis */
        rot_axis_angle(b->axis, q[0], R);
        m3_transpose(R, E);
        for (int k = 0; k < 3; k++) {
            r[k] = b->axis[k] * q[1];
            S[2 * k] = S[2 * (3 + k) + 1] = b->axis[k];
            S[2 * k + 1] = S[2 * (3 + k)] = 0.0;
        }
        plux(E, r, XJ);
        break;
    }
}

void body_jcalc_normalized(const mech_body *b, const double *q, double XJ[36], double *S)
{
    double qn[7];
    if (b->joint != MECH_JOINT_FLOATING && b->joint != MECH_JOINT_SPHERICAL) {
        body_jcalc(b, q, XJ, S);
        return;
    }
    quat_normalize(q, qn);
    for (int k = 4; k < 7 && b->joint == MECH_JOINT_FLOATING; k++) qn[k] = q[k];
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

/* E = R(a, q)^T by Rodrigues, R = c 1 + s ax + (1 - c) a a^T, with its structure. */
static void axis_rotation(const double a[3], double q, sxform *XJ)
{
    double s, c;
    mech_sincos(q, &s, &c);
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
    XJ->rot = a[1] == 0.0 && a[2] == 0.0 ? 0
            : a[2] == 0.0 && a[0] == 0.0 ? 1
            : a[0] == 0.0 && a[1] == 0.0 ? 2
                                         : SXFORM_ROT_GENERAL;
}

/* E = R(Q / |Q|)^T. */
static void quat_rotation(const double *q, sxform *XJ)
{
    double qn[4], R[9];
    quat_normalize(q, qn);
    quat_to_rot(qn, R);
    m3_transpose(R, XJ->E);
    XJ->rot = SXFORM_ROT_GENERAL;
}

/* Table 4.1 with E = R^T. */
void sxform_jcalc(const mech_body *b, const double *q, sxform *XJ)
{
    const double *a = b->axis;
    XJ->rot = SXFORM_ROT_NONE;
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE:
        axis_rotation(a, q[0], XJ);
        XJ->r[0] = XJ->r[1] = XJ->r[2] = 0.0;
        break;
    case MECH_JOINT_PRISMATIC:
        m3_copy(I3, XJ->E);
        XJ->r[0] = a[0] * q[0];
        XJ->r[1] = a[1] * q[0];
        XJ->r[2] = a[2] * q[0];
        break;
    case MECH_JOINT_FLOATING:
        quat_rotation(q, XJ);
        memcpy(XJ->r, q + 4, sizeof XJ->r);
        break;
    case MECH_JOINT_FIXED:
        m3_copy(I3, XJ->E);
        XJ->r[0] = XJ->r[1] = XJ->r[2] = 0.0;
        break;
    case MECH_JOINT_SPHERICAL:
        quat_rotation(q, XJ);
        XJ->r[0] = XJ->r[1] = XJ->r[2] = 0.0;
        break;
    case MECH_JOINT_CYLINDRICAL:
        axis_rotation(a, q[0], XJ);
        XJ->r[0] = a[0] * q[1];
        XJ->r[1] = a[1] * q[1];
        XJ->r[2] = a[2] * q[1];
        break;
    }
}
