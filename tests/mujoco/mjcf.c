/* mjcf.c — see mjcf.h. */
#include "mjcf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spatial/spatial.h"

/* ---- MJCF text ---- */

typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} text_buf;

static void put(text_buf *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = t->failed ? -1 : vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = 2 * t->cap + (size_t)n;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->failed = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* "x y z" at full precision, so the doubles MuJoCo parses are ours exactly. */
static void put_vec(text_buf *t, const char *attr, const double *v, int n)
{
    put(t, " %s=\"", attr);
    for (int i = 0; i < n; i++) put(t, i ? " %.17g" : "%.17g", v[i]);
    put(t, "\"");
}

/* The rsdas on body i's joint as MuJoCo's joint spring and damper
 * (passive force -stiffness (q - springref) - damping qd): their sums. */
static void put_spring(text_buf *t, const mech_model *m, int i)
{
    double k = 0, c = 0, kq0 = 0;
    for (int r = 0; r < m->nrsda; r++)
        if (m->rsdas[r].body == i) {
            k += m->rsdas[r].k;
            c += m->rsdas[r].c;
            kq0 += m->rsdas[r].k * m->rsdas[r].q0;
        }
    if (k != 0 || c != 0) put(t, " stiffness=\"%.17g\" damping=\"%.17g\" springref=\"%.17g\"", k, c, k ? kq0 / k : 0.0);
}

static void put_axis_joint(text_buf *t, const mech_body *b, const char *name, const char *type, int depth)
{
    put(t, "%*s<joint name=\"%s\" type=\"%s\" armature=\"%.17g\"", 2 * depth, "", name, type, b->armature);
    put_vec(t, "axis", b->axis, 3);
}

/* A cylindrical joint is MuJoCo's hinge and slide on the same axis through
 * the body origin (they commute), in the order of our q: angle, displacement. */
static void put_joint(text_buf *t, const mech_model *m, int i, int depth)
{
    const mech_body *b = &m->bodies[i];
    char name[24];
    snprintf(name, sizeof name, "j%d", i);
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE:
    case MECH_JOINT_PRISMATIC:
        put_axis_joint(t, b, name, b->joint == MECH_JOINT_REVOLUTE ? "hinge" : "slide", depth);
        put_spring(t, m, i);
        put(t, "/>\n");
        break;
    case MECH_JOINT_FLOATING: put(t, "%*s<freejoint name=\"j%d\"/>\n", 2 * depth, "", i); break;
    case MECH_JOINT_FIXED: break;
    case MECH_JOINT_SPHERICAL:
        put(t, "%*s<joint name=\"j%d\" type=\"ball\" armature=\"%.17g\"/>\n", 2 * depth, "", i, b->armature);
        break;
    case MECH_JOINT_CYLINDRICAL:
        put_axis_joint(t, b, name, "hinge", depth);
        put(t, "/>\n");
        snprintf(name, sizeof name, "j%d_slide", i);
        put_axis_joint(t, b, name, "slide", depth);
        put(t, "/>\n");
        break;
    }
}

/* Symmetric 3x3 A = V diag(d) V' by cyclic Jacobi, run to machine precision;
 * V is a proper rotation.  (MuJoCo 2.2.2's own `fullinertia` decomposition
 * stops early and perturbs the inertia by ~1e-7 relative, too much for a
 * 1e-9 gate, so the principal frame is written explicitly.) */
static void sym_eig3(const double A[9], double V[9], double d[3])
{
    static const int pairs[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
    double a[9], J[9], Jt[9], tmp[9];
    memcpy(a, A, sizeof a);
    m3_identity(V);
    for (int sweep = 0, rotated = 1; rotated && sweep < 32; sweep++) {
        rotated = 0;
        for (int k = 0; k < 3; k++) {
            int p = pairs[k][0], q = pairs[k][1];
            double apq = a[3 * p + q], app = a[4 * p], aqq = a[4 * q];
            if (fabs(apq) <= 1e-18 * (fabs(app) + fabs(aqq))) continue;
            double theta = (aqq - app) / (2 * apq);
            double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
            double c = 1 / sqrt(t * t + 1);
            m3_identity(J);
            J[4 * p] = J[4 * q] = c;
            J[3 * p + q] = t * c;
            J[3 * q + p] = -t * c;
            m3_transpose(J, Jt);
            m3_mul(Jt, a, tmp);
            m3_mul(tmp, J, a);
            m3_mul(V, J, tmp);
            memcpy(V, tmp, sizeof tmp);
            rotated = 1;
        }
    }
    for (int k = 0; k < 3; k++) d[k] = a[4 * k];
}

/* Inertia about the CoM as principal frame + principal moments. */
static void put_inertial(text_buf *t, const mech_body *b, int depth)
{
    double V[9], d[3], quat[4];
    sym_eig3(b->inertia, V, d);
    rot_to_quat(V, quat);
    put(t, "%*s<inertial mass=\"%.17g\"", 2 * depth, "", b->mass);
    put_vec(t, "pos", b->com, 3);
    put_vec(t, "quat", quat, 4);
    put_vec(t, "diaginertia", d, 3);
    put(t, "/>\n");
}

static void put_body(text_buf *t, const mech_model *m, int i, int depth)
{
    const mech_body *b = &m->bodies[i];
    double quat[4];
    rot_to_quat(b->rot, quat);
    put(t, "%*s<body name=\"b%d\"", 2 * depth, "", i);
    put_vec(t, "pos", b->pos, 3);
    put_vec(t, "quat", quat, 4);
    put(t, ">\n");
    put_joint(t, m, i, depth + 1);
    put_inertial(t, b, depth + 1);
    for (int k = i + 1; k < m->nb; k++)
        if (m->bodies[k].parent == i) put_body(t, m, k, depth + 1);
    put(t, "%*s</body>\n", 2 * depth, "");
}

/* Each actuator as MuJoCo's general actuator with a fixed gain and an
 * affine bias on its joint (MuJoCo docs, "Actuation model"). */
static void put_actuators(text_buf *t, const mech_model *m)
{
    if (!m->nu) return;
    put(t, "  <actuator>\n");
    for (int i = 0; i < m->nu; i++) {
        const mech_actuator *a = &m->actuators[i];
        if (a->tendon >= 0) put(t, "    <general name=\"a%d\" tendon=\"t%d\"", i, a->tendon);
        else put(t, "    <general name=\"a%d\" joint=\"j%d\"", i, a->body);
        put(t, " gear=\"%.17g\" gaintype=\"fixed\" biastype=\"affine\"", a->gear);
        put(t, " gainprm=\"%.17g\"", a->gain);
        put_vec(t, "biasprm", a->bias, 3);
        put(t, " ctrllimited=\"%s\" forcelimited=\"%s\"", a->ctrllimited ? "true" : "false",
            a->forcelimited ? "true" : "false");
        if (a->ctrllimited) put_vec(t, "ctrlrange", a->ctrlrange, 2);
        if (a->forcelimited) put_vec(t, "forcerange", a->forcerange, 2);
        put(t, "/>\n");
    }
    put(t, "  </actuator>\n");
}

/* Each fixed tendon (MuJoCo docs, XML reference, "tendon/fixed"), its
 * spring length given (MuJoCo's -1 default would take it at qpos0). */
static void put_tendons(text_buf *t, const mech_model *m)
{
    if (!m->ntendon) return;
    put(t, "  <tendon>\n");
    for (int i = 0; i < m->ntendon; i++) {
        const mech_tendon *td = &m->tendons[i];
        put(t, "    <fixed name=\"t%d\" stiffness=\"%.17g\" damping=\"%.17g\" springlength=\"%.17g\"", i, td->stiffness,
            td->damping, td->springlength);
        if (td->limited) put_vec(t, "range", td->range, 2);
        put(t, " limited=\"%s\">\n", td->limited ? "true" : "false");
        for (int k = 0; k < td->njoint; k++)
            put(t, "      <joint joint=\"j%d\" coef=\"%.17g\"/>\n", td->body[k], td->coef[k]);
        put(t, "    </fixed>\n");
    }
    put(t, "  </tendon>\n");
}

/* Each equality constraint (MuJoCo docs, XML reference, "equality"). */
static void put_equalities(text_buf *t, const mech_model *m)
{
    if (!m->nequality) return;
    put(t, "  <equality>\n");
    for (int i = 0; i < m->nequality; i++) {
        const mech_equality *e = &m->equalities[i];
        if (e->type == MECH_EQ_JOINT) {
            put(t, "    <joint joint1=\"j%d\"", e->a);
            if (e->b >= 0) put(t, " joint2=\"j%d\"", e->b);
            put_vec(t, "polycoef", e->polycoef, 5);
        } else {
            put(t, "    <connect body1=\"b%d\"", e->a);
            if (e->b >= 0) put(t, " body2=\"b%d\"", e->b);
            else put(t, " body2=\"world\"");
            put_vec(t, "anchor", e->anchor, 3);
        }
        put_vec(t, "solref", e->solref, 2);
        put_vec(t, "solimp", e->solimp, 3);
        put(t, "/>\n");
    }
    put(t, "  </equality>\n");
}

int mjcf_supported(const mech_model *m, char *why, int len)
{
    if (m->nloop > 0)
        snprintf(why, (size_t)len,
                 "%d loop joint(s): closed loops are not mapped (MuJoCo "
                 "closes loops with soft equality constraints, not exactly)",
                 m->nloop);
    else if (m->ntsda > 0) snprintf(why, (size_t)len, "%d tsda(s) are not mapped to MuJoCo tendons", m->ntsda);
    else if (m->nact > m->nu)
        snprintf(why, (size_t)len, "%d rsda input(s) are not mapped to MuJoCo actuators", m->nact - m->nu);
    else return 1;
    return 0;
}

char *mjcf_write(const mech_model *m)
{
    text_buf t = { .s = malloc(4096), .cap = 4096 };
    t.failed = !t.s;
    put(&t, "<mujoco model=\"mech\">\n");
    put(&t, "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n");
    put(&t, "  <option integrator=\"Euler\" timestep=\"0.001\"");
    put_vec(&t, "gravity", m->gravity, 3);
    put(&t,
        ">\n    <flag%s contact=\"disable\" limit=\"disable\"%s frictionloss=\"disable\"%s/>\n"
        "  </option>\n  <worldbody>\n",
        m->nequality ? "" : " constraint=\"disable\"", m->nequality ? "" : " equality=\"disable\"",
        m->nrsda || m->ntendon ? "" : " passive=\"disable\"");
    for (int i = 0; i < m->nb; i++)
        if (m->bodies[i].parent < 0) put_body(&t, m, i, 2);
    put(&t, "  </worldbody>\n");
    put_tendons(&t, m);
    put_equalities(&t, m);
    put_actuators(&t, m);
    put(&t, "</mujoco>\n");
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

/* ---- compiling it ---- */

static mjModel *load_from_memory(const char *xml, char *err, int errlen)
{
    static const char name[] = "mech.xml";
    mjVFS *vfs = malloc(sizeof *vfs); /* ~2 MB: not for the stack */
    if (!vfs) {
        snprintf(err, (size_t)errlen, "out of memory");
        return NULL;
    }
    mj_defaultVFS(vfs);
    int len = (int)strlen(xml);
    mjModel *m = NULL;
    if (mj_makeEmptyFileVFS(vfs, name, len) == 0) {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, name)], xml, (size_t)len);
        m = mj_loadXML(name, vfs, err, errlen);
    } else {
        snprintf(err, (size_t)errlen, "mj_makeEmptyFileVFS failed");
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return m;
}

static int map_indices(mjcf_sim *s, char *err, int errlen)
{
    for (int i = 0; i < s->mech->nb; i++) {
        char name[24];
        snprintf(name, sizeof name, "b%d", i);
        int id = mj_name2id(s->m, mjOBJ_BODY, name);
        if (id < 0) {
            snprintf(err, (size_t)errlen, "body %s missing in MuJoCo", name);
            return 0;
        }
        int jnt = s->m->body_jntadr[id];
        s->body[i] = id;
        s->qposadr[i] = jnt < 0 ? -1 : s->m->jnt_qposadr[jnt];
        s->dofadr[i] = jnt < 0 ? -1 : s->m->jnt_dofadr[jnt];
    }
    return 1;
}

mjcf_sim *mjcf_sim_new(const mech_model *mech, char *err, int errlen)
{
    if (!mjcf_supported(mech, err, errlen)) return NULL;
    char *xml = mjcf_write(mech);
    mjcf_sim *s = calloc(1, sizeof *s);
    if (!xml || !s) {
        snprintf(err, (size_t)errlen, "out of memory");
        free(xml);
        free(s);
        return NULL;
    }
    s->mech = mech;
    s->m = load_from_memory(xml, err, errlen);
    free(xml);
    if (!s->m) {
        mjcf_sim_free(s);
        return NULL;
    }
    s->d = mj_makeData(s->m);
    s->body = malloc(sizeof(int) * (size_t)(3 * mech->nb + 1));
    s->rhs = malloc(sizeof(double) * (size_t)(s->m->nv + 1));
    if (!s->d || !s->body || !s->rhs) {
        snprintf(err, (size_t)errlen, "out of memory");
        mjcf_sim_free(s);
        return NULL;
    }
    s->qposadr = s->body + mech->nb;
    s->dofadr = s->qposadr + mech->nb;
    if (!map_indices(s, err, errlen)) {
        mjcf_sim_free(s);
        return NULL;
    }
    return s;
}

void mjcf_sim_free(mjcf_sim *s)
{
    if (!s) return;
    if (s->d) mj_deleteData(s->d);
    if (s->m) mj_deleteModel(s->m);
    free(s->body);
    free(s->rhs);
    free(s);
}

/* ---- moving states across ---- */

/* World attitude Rw = R0 R(Q) of a floating body (its parent is the base). */
static void floating_rot(const mech_body *b, const double *qb, double Rw[9])
{
    double R[9];
    quat_to_rot(qb, R);
    m3_mul(b->rot, R, Rw);
}

static void map_floating(const mech_body *b, const double *qb, const double *vb, const double *tb, double *qpos,
                         double *qvel, double *qfrc)
{
    double Rw[9], r[3];
    floating_rot(b, qb, Rw);
    m3_mulv(b->rot, qb + 4, r);
    for (int k = 0; k < 3; k++) qpos[k] = b->pos[k] + r[k];
    rot_to_quat(Rw, qpos + 3);
    m3_mulv(Rw, vb + 3, qvel);
    memcpy(qvel + 3, vb, 3 * sizeof(double));
    m3_mulv(Rw, tb + 3, qfrc);
    memcpy(qfrc + 3, tb, 3 * sizeof(double));
}

/* [moment about the base origin; force] -> [force; torque about the CoM c]. */
static void map_fext(const double f[6], const double c[3], double x[6])
{
    double cxf[3];
    v3_cross(c, f + 3, cxf);
    for (int k = 0; k < 3; k++) {
        x[k] = f[3 + k];
        x[3 + k] = f[k] - cxf[k];
    }
}

static void map_xfrc(mjcf_sim *s, const double *qpos, const double *fext, double *xfrc)
{
    if (qpos != s->d->qpos) memcpy(s->d->qpos, qpos, sizeof(double) * (size_t)s->m->nq);
    mj_kinematics(s->m, s->d);
    memset(xfrc, 0, sizeof(double) * 6 * (size_t)s->m->nbody);
    for (int i = 0; i < s->mech->nb; i++)
        if (s->mech->bodies[i].fext) map_fext(fext + 6 * i, s->d->xipos + 3 * s->body[i], xfrc + 6 * s->body[i]);
}

void mjcf_map_state(mjcf_sim *s, const double *q, const double *qd, const double *tau, const double *fext, double *qpos,
                    double *qvel, double *qfrc, double *xfrc)
{
    for (int i = 0; i < s->mech->nb; i++) {
        const mech_body *b = &s->mech->bodies[i];
        int qa = s->qposadr[i], da = s->dofadr[i];
        if (b->joint == MECH_JOINT_FLOATING) {
            map_floating(b, q + b->qidx, qd + b->vidx, tau + b->vidx, qpos + qa, qvel + da, qfrc + da);
        } else if (b->nv > 0) { /* the same coordinates: a ball joint's quaternion, its body-frame w */
            memcpy(qpos + qa, q + b->qidx, sizeof(double) * (size_t)b->nq);
            memcpy(qvel + da, qd + b->vidx, sizeof(double) * (size_t)b->nv);
            memcpy(qfrc + da, tau + b->vidx, sizeof(double) * (size_t)b->nv);
        }
    }
    if (fext) map_xfrc(s, qpos, fext, xfrc);
}

void mjcf_set_state(mjcf_sim *s, const double *q, const double *qd, const double *tau, const double *fext)
{
    mjData *d = s->d;
    if (!fext) memset(d->xfrc_applied, 0, sizeof(double) * 6 * (size_t)s->m->nbody);
    mjcf_map_state(s, q, qd, tau, fext, d->qpos, d->qvel, d->qfrc_applied, d->xfrc_applied);
}

void mjcf_set_ctrl(mjcf_sim *s, const double *ctrl) { memcpy(s->d->ctrl, ctrl, sizeof(double) * (size_t)s->m->nu); }

void mjcf_get_qdd(const mjcf_sim *s, const double *q, const double *qd, double *qdd)
{
    const double *qacc = s->d->qacc;
    for (int i = 0; i < s->mech->nb; i++) {
        const mech_body *b = &s->mech->bodies[i];
        double *out = qdd + b->vidx;
        if (b->joint == MECH_JOINT_FLOATING) {
            const double *a = qacc + s->dofadr[i], *w = qd + b->vidx;
            double Rw[9], wxv[3];
            floating_rot(b, q + b->qidx, Rw);
            memcpy(out, a + 3, 3 * sizeof(double));
            m3_tmulv(Rw, a, out + 3);
            v3_cross(w, w + 3, wxv);
            for (int k = 0; k < 3; k++) out[3 + k] -= wxv[k];
        } else if (b->nv > 0) {
            memcpy(out, qacc + s->dofadr[i], sizeof(double) * (size_t)b->nv);
        }
    }
}

void mjcf_forward_minimal(mjcf_sim *s)
{
    const mjModel *m = s->m;
    mjData *d = s->d;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_crb(m, d);
    mj_factorM(m, d);
    mj_comVel(m, d);
    mj_rne(m, d, 0, d->qfrc_bias);
    for (int k = 0; k < m->nv; k++) s->rhs[k] = d->qfrc_applied[k] - d->qfrc_bias[k];
    for (int i = 0; i < s->mech->nb; i++) {
        if (!s->mech->bodies[i].fext) continue;
        int id = s->body[i];
        const double *x = d->xfrc_applied + 6 * id;
        mj_applyFT(m, d, x, x + 3, d->xipos + 3 * id, id, s->rhs);
    }
    mj_solveM(m, d, d->qacc, s->rhs, 1);
}
