/* xpbd_contact.c — rigid contact in the XPBD substeps, after Müller et al.
 * 2020 §3.5–3.6 (docs/xpbd.md, "Contact"):
 *   per step     the broad phase over the colliders' boxes, grown by the
 *                step's motion (core/collide/broadphase.c);
 *   per substep  the narrow phase at the substep's start pose, with a margin
 *                of the substep's motion (contact points a_i fixed in the
 *                bodies, normal n fixed in the world);
 *   per solve    each manifold as one block (manifold_block): the normal
 *                constraints C = (p0 − p1)·n ≥ 0 and static friction, the
 *                motion of the centre of pressure since the substep's start
 *                across n and its turn about n held while |λ_t| ≤ μs Σ λ_n,
 *                all with compliance 0;
 *   velocities   restitution to n·v = max(−e ṽ_n, 0), e = 0 when
 *                |ṽ_n| ≤ 2|g|h, then dynamic friction, an impulse against
 *                v_t bounded by μd times the normal impulse.
 * p_i = x_i + R_i a_i; the rows are [u; a_i × R_iᵀu] (right perturbations,
 * body-frame rotations), solved as the joints' rows are (eqs. 56–58).
 * Rods (Tobin & Rucker §7): their elements join the broad phase, the narrow
 * phase is xpbd_narrow_rod.c, and a contact with a rod side
 * (xpbd_rod_contact.c) is solved as scalar rows after the rods' elastic
 * solve (§8.2), with the same laws (rod_contact_rows). */
#include "xpbd/rod.h"
#include "xpbd/xpbd_internal.h"

#include "spatial/linalg.h"
#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* World pose of every collider at the data's current body poses. */
static void place(const xpbd_model *m, xpbd_data *d)
{
    for (int i = 0; i < m->ncollider; i++) {
        const xpbd_collider *c = &m->colliders[i];
        collide_placed *s = &d->placed[i];
        if (c->body >= 0) {
            collide_shape_place(&c->shape, d->p + 3 * c->body, d->R + 9 * c->body, s);
            continue;
        }
        s->kind = c->shape.kind;
        memcpy(s->size, c->shape.size, sizeof s->size);
        memcpy(s->c, c->shape.pos, sizeof s->c);
        memcpy(s->R, c->shape.R, sizeof s->R);
    }
}

/* An upper bound on how far any point of collider i moves in time t:
 * (|v| + |ω| ρ) t + |g| t², ρ the collider's reach from the CoM. */
static double motion(const xpbd_model *m, const xpbd_data *d, int i, double t)
{
    const xpbd_collider *c = &m->colliders[i];
    if (c->body < 0) return 0;
    const double *v = d->v + 3 * c->body, *w = d->w + 3 * c->body, *s = c->shape.size;
    double reach = sqrt(dot(c->shape.pos, c->shape.pos));
    switch (c->shape.kind) {
    case COLLIDE_SPHERE: reach += s[0]; break;
    case COLLIDE_BOX: reach += sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]); break;
    case COLLIDE_HULL: {
        double far = 0;
        for (int k = 0; k < c->shape.nhull; k++) far = fmax(far, dot(c->shape.hull + 3 * k, c->shape.hull + 3 * k));
        reach += sqrt(far);
        break;
    }
    default: reach += s[0] + s[1]; break;
    }
    return (sqrt(dot(v, v)) + sqrt(dot(w, w)) * reach) * t + sqrt(dot(d->gravity, d->gravity)) * t * t;
}

typedef struct {
    const xpbd_model *m;
    const xpbd_data *d;
} pair_context;

static int excluded(int i, int j, const void *user)
{
    const pair_context *x = user;
    const xpbd_model *m = x->m;
    if (i >= m->ncollider || j >= m->ncollider) return xpbd_rod_pair_excluded(m, x->d, i, j);
    int b1 = m->colliders[i].body, b2 = m->colliders[j].body;
    if (b1 == b2) return 1;
    if (b1 < 0 || b2 < 0) return 0;
    long long key = b1 < b2 ? (long long)b1 * m->nbody + b2 : (long long)b2 * m->nbody + b1;
    int lo = 0, hi = m->nexclude - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->exclude[mid] == key) return 1;
        if (m->exclude[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

int xpbd_contacts_broadphase(const xpbd_model *m, xpbd_data *d)
{
    if (xpbd_rod_elements_place(d, m->ncollider)) return -1;
    place(m, d);
    for (int i = 0; i < m->ncollider; i++) d->collider_grow[i] = 2.0 * motion(m, d, i, d->dt);
    pair_context x = { m, d };
    return collide_broadphase_run(&d->broad, m->ncollider + d->nelem, d->placed, d->collider_static, d->collider_grow,
                                  excluded, &x);
}

xpbd_contact *xpbd_contact_push(xpbd_data *d)
{
    if (d->ncontact == d->cap_contact) {
        int cap = d->cap_contact ? 2 * d->cap_contact : 64;
        xpbd_contact *g = realloc(d->contacts, (size_t)cap * sizeof *g);
        if (!g) return NULL;
        d->contacts = g;
        d->cap_contact = cap;
    }
    xpbd_contact *c = &d->contacts[d->ncontact++];
    c->rod[0] = c->rod[1] = -1;
    c->lambda_n = 0;
    c->lambda_t[0] = c->lambda_t[1] = c->lambda_t[2] = c->lambda_twist = 0;
    return c;
}

/* The contact point p in side i's coordinates. */
static void side_point(const xpbd_data *d, int body, const double p[3], double a[3])
{
    if (body < 0) {
        memcpy(a, p, 3 * sizeof(double));
        return;
    }
    double r[3];
    for (int k = 0; k < 3; k++) r[k] = p[k] - d->p[3 * body + k];
    m3_tmulv(d->R + 9 * body, r, a);
}

/* The material of a contact: the means of its two sides'. */
static void material(xpbd_contact *c, const double mu_s[2], const double mu_d[2], const double e[2])
{
    c->mu_s = 0.5 * (mu_s[0] + mu_s[1]);
    c->mu_d = 0.5 * (mu_d[0] + mu_d[1]);
    c->e = 0.5 * (e[0] + e[1]);
}

/* The contacts of a pair with a rod element j (after the colliders): side 0
 * is element j and side 1 collider i (§7.1.1), or side 0 element i and side
 * 1 element j (§7.1.2); margin twice the pair's motion bound over h. */
static int rod_pair(const xpbd_model *m, xpbd_data *d, int i, int j, double h)
{
    int n0 = m->ncollider, kj = j - n0, node0;
    xpbd_rod_curve cj, ci;
    xpbd_rod_element_curve(d, kj, &cj, &node0);
    const xpbd_rod_desc *rj = &d->rods[d->elem[2 * kj]]->desc;
    double margin = 2.0 * xpbd_rod_element_motion(d, kj, h), mu_s[2] = { rj->mu_s }, mu_d[2] = { rj->mu_d },
           e[2] = { rj->e };
    xpbd_rod_hit hit[3];
    int nh;
    if (i < n0) {
        const xpbd_collider *col = &m->colliders[i];
        margin += 2.0 * motion(m, d, i, h);
        nh = xpbd_collide_rod_shape(&cj, &d->placed[i], margin, hit);
        mu_s[1] = col->mu_s, mu_d[1] = col->mu_d, e[1] = col->e;
    } else {
        const xpbd_rod_desc *ri = &d->rods[d->elem[2 * (i - n0)]]->desc;
        xpbd_rod_element_curve(d, i - n0, &ci, &node0);
        margin += 2.0 * xpbd_rod_element_motion(d, i - n0, h);
        nh = xpbd_collide_rod_rod(&ci, &cj, margin, hit);
        mu_s[1] = ri->mu_s, mu_d[1] = ri->mu_d, e[1] = ri->e;
    }
    for (int q = 0; q < nh; q++) {
        xpbd_contact *c = xpbd_contact_push(d);
        if (!c) return -1;
        c->collider[0] = i < n0 ? j : i;
        c->collider[1] = i < n0 ? i : j;
        memcpy(c->n, hit[q].n, sizeof c->n);
        if (i < n0) {
            xpbd_rod_side_set(d, c, 0, kj, hit[q].xi[0]);
            c->body[1] = m->colliders[i].body;
            side_point(d, c->body[1], hit[q].pb, c->a[1]);
        } else {
            xpbd_rod_side_set(d, c, 0, i - n0, hit[q].xi[0]);
            xpbd_rod_side_set(d, c, 1, kj, hit[q].xi[1]);
            for (int k = 0; k < 3; k++) c->a[1][k] = cj.r * c->n[k];
        }
        for (int k = 0; k < 3; k++) c->a[0][k] = -(i < n0 ? cj.r : ci.r) * c->n[k];
        material(c, mu_s, mu_d, e);
    }
    return 0;
}

int xpbd_contacts_find(const xpbd_model *m, xpbd_data *d, double h)
{
    d->ncontact = 0;
    if (d->broad.n == 0) return 0; /* no candidate pair this step: nothing to place */
    place(m, d);
    for (int q = 0; q < d->broad.n; q++) {
        int i = d->broad.pairs[2 * q], j = d->broad.pairs[2 * q + 1];
        if (j >= m->ncollider) {
            if (rod_pair(m, d, i, j, h)) return -1;
            continue;
        }
        collide_manifold mf;
        double margin = 2.0 * (motion(m, d, i, h) + motion(m, d, j, h));
        int np = collide_pair(&d->placed[i], &d->placed[j], margin, &mf);
        const xpbd_collider *ci = &m->colliders[i], *cj = &m->colliders[j];
        for (int k = 0; k < np; k++) {
            xpbd_contact *c = xpbd_contact_push(d);
            if (!c) return -1;
            c->body[0] = ci->body;
            c->body[1] = cj->body;
            c->collider[0] = i;
            c->collider[1] = j;
            side_point(d, ci->body, mf.pa[k], c->a[0]);
            side_point(d, cj->body, mf.pb[k], c->a[1]);
            memcpy(c->n, mf.n, sizeof c->n);
            c->mu_s = 0.5 * (ci->mu_s + cj->mu_s);
            c->mu_d = 0.5 * (ci->mu_d + cj->mu_d);
            c->e = 0.5 * (ci->e + cj->e);
        }
    }
    return 0;
}

/* World point p = x + R a of a body side at pose (x, R). */
static void side_world(const double *x, const double *R, const double a[3], double p[3])
{
    double r[3];
    m3_mulv(R, a, r);
    for (int k = 0; k < 3; k++) p[k] = x[k] + r[k];
}

/* The two gradient rows along the world direction u: side 0 [u; a0 × R0ᵀu],
 * side 1 the negation of its own. */
static void rows(const xpbd_data *d, const xpbd_contact *c, const double u[3], double g[2][6])
{
    for (int i = 0; i < 2; i++) {
        double sg = i == 0 ? 1.0 : -1.0, ub[3];
        memset(g[i], 0, 6 * sizeof(double));
        if (c->body[i] < 0) continue;
        m3_tmulv(d->R + 9 * c->body[i], u, ub);
        v3_cross(c->a[i], ub, g[i] + 3);
        for (int k = 0; k < 3; k++) {
            g[i][k] = sg * u[k];
            g[i][3 + k] *= sg;
        }
    }
}

/* Velocity of the contact point of side i: v + R(ω × a). */
static void point_velocity(const xpbd_data *d, int body, const double a[3], double out[3])
{
    if (body < 0) {
        out[0] = out[1] = out[2] = 0;
        return;
    }
    double wa[3];
    v3_cross(d->w + 3 * body, a, wa);
    m3_mulv(d->R + 9 * body, wa, out);
    for (int k = 0; k < 3; k++) out[k] += d->v[3 * body + k];
}

static void relative_velocity(const xpbd_data *d, const xpbd_contact *c, double v[3])
{
    double v0[3], v1[3];
    point_velocity(d, c->body[0], c->a[0], v0);
    point_velocity(d, c->body[1], c->a[1], v1);
    if (c->rod[0] >= 0) xpbd_rod_side_velocity(d, c, 0, v0);
    if (c->rod[1] >= 0) xpbd_rod_side_velocity(d, c, 1, v1);
    for (int k = 0; k < 3; k++) v[k] = v0[k] - v1[k];
}

void xpbd_contacts_approach(xpbd_data *d)
{
    for (int q = 0; q < d->ncontact; q++) {
        xpbd_contact *c = &d->contacts[q];
        double v[3];
        relative_velocity(d, c, v);
        c->vn0 = dot(c->n, v);
    }
}

/* Current and substep-start world points of both sides. */
static void contact_points(const xpbd_data *d, const xpbd_contact *c, double p[2][3], double pbar[2][3])
{
    for (int i = 0; i < 2; i++) {
        int b = c->body[i];
        if (c->rod[i] >= 0) {
            xpbd_rod_side_point(d, c, i, 0, p[i]);
            xpbd_rod_side_point(d, c, i, 1, pbar[i]);
            continue;
        }
        if (b < 0) {
            memcpy(p[i], c->a[i], sizeof p[i]);
            memcpy(pbar[i], c->a[i], sizeof pbar[i]);
            continue;
        }
        side_world(d->p + 3 * b, d->R + 9 * b, c->a[i], p[i]);
        side_world(d->p_prev + 3 * b, d->R_prev + 9 * b, c->a[i], pbar[i]);
    }
}

/* The end of the manifold that starts at contact q0. */
static int manifold_end(const xpbd_data *d, int q0)
{
    int q1 = q0;
    while (q1 < d->ncontact && d->contacts[q1].collider[0] == d->contacts[q0].collider[0] &&
           d->contacts[q1].collider[1] == d->contacts[q0].collider[1])
        q1++;
    return q1;
}

/* The turn about n of side 0 against side 1 since the substep's start,
 * n·(R0 (R0 ⊟ R̄0) − R1 (R1 ⊟ R̄1)), and its rows [0; ±R_iᵀn]. */
static double turn_row(const xpbd_data *d, const int body[2], const double n[3], double g[2][6])
{
    double C = 0;
    for (int i = 0; i < 2; i++) {
        memset(g[i], 0, 6 * sizeof(double));
        int b = body[i];
        if (b < 0) continue;
        double th[3], thw[3], sg = i == 0 ? 1.0 : -1.0;
        so3_minus(d->R + 9 * b, d->R_prev + 9 * b, th);
        m3_mulv(d->R + 9 * b, th, thw);
        C += sg * dot(n, thw);
        m3_tmulv(d->R + 9 * b, n, g[i] + 3);
        for (int k = 3; k < 6; k++) g[i][k] *= sg;
    }
    return C;
}

enum { MAX_ROWS = COLLIDE_MAX_MANIFOLD + 3 };

/* One manifold (contacts q0 .. q1) as one block, as block mode solves a
 * joint's vector constraint (§8.1): its normal rows C = (p0 − p1)·n ≥ 0 and
 * its static friction, compliance 0, over the active rows
 *   [∇C M⁻¹ ∇Cᵀ + εI] Δλ = −C,  ε = 1e-6 of the mean diagonal
 * (four coplanar points give a rank-3 system; ε takes the least-norm share
 * of the load).  Static friction holds the centre of pressure (the λ_n-
 * weighted mean point, fixed in each side) where it was at the substep's
 * start along two tangents t1, t2, and the turn about n (friction_rows).
 * Active: normal rows that penetrate or pressed earlier in the substep, and
 * the friction rows.  After a solve, the tangents leave when
 * |λ_t| > μs Σλ_n, the turn when |λ_τ| > μs Σ λ_n,k ρ_k (ρ_k a point's
 * distance from the centre across n) — the manifold slides or spins, and
 * dynamic friction acts in the velocity pass — and the normal rows start
 * again from the initial set; otherwise normal rows whose λ_n would turn
 * negative leave.  Solved point by point instead, a box's first corners tilt
 * it, the next corners' friction takes the tilt for slip, and the friction
 * rows, acting off the centre of mass, tilt what they hold: stacked boxes
 * turned 0.19 rad in 10 s. */
/* The friction rows of a manifold whose normal rows `normal` (n of them)
 * are active: rows k, k + 1 hold the centre of pressure cp (the λ_n-weighted
 * mean point, fixed in each side; the active points' mean before any load)
 * where it was at the substep's start along tangents t[0], t[1]; row k + 2
 * holds the turn about n.  0 when the manifold has no static friction. */
static int friction_rows(const xpbd_data *d, int q0, int k, const int *normal, int n, xpbd_contact *cp, double t[2][3],
                         double *C, double (*g)[2][6])
{
    const xpbd_contact *c0 = &d->contacts[q0];
    double ln = 0, wsum = 0;
    for (int i = 0; i < n; i++) ln += d->contacts[q0 + normal[i]].lambda_n;
    *cp = *c0;
    memset(cp->a, 0, sizeof cp->a);
    for (int i = 0; i < n; i++) {
        const xpbd_contact *c = &d->contacts[q0 + normal[i]];
        double wgt = ln > 0 ? c->lambda_n : 1.0;
        wsum += wgt;
        for (int s = 0; s < 2; s++)
            for (int j = 0; j < 3; j++) cp->a[s][j] += wgt * c->a[s][j];
    }
    if (!(c0->mu_s > 0 && wsum > 0)) return 0;
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < 3; j++) cp->a[s][j] /= wsum;
    double p[2][3], pbar[2][3], dp[3], e[3] = { 1, 0, 0 };
    contact_points(d, cp, p, pbar);
    for (int j = 0; j < 3; j++) dp[j] = (p[0][j] - pbar[0][j]) - (p[1][j] - pbar[1][j]);
    if (fabs(cp->n[0]) > 0.6) e[0] = 0, e[1] = 1;
    v3_cross(cp->n, e, t[0]);
    double L = sqrt(dot(t[0], t[0]));
    for (int j = 0; j < 3; j++) t[0][j] /= L;
    v3_cross(cp->n, t[0], t[1]);
    for (int r = 0; r < 2; r++) {
        C[k + r] = dot(dp, t[r]);
        rows(d, cp, t[r], g[k + r]);
    }
    C[k + 2] = turn_row(d, c0->body, cp->n, g[k + 2]);
    return 1;
}

static void manifold_block(const xpbd_model *m, xpbd_data *d, int q0, int q1)
{
    xpbd_contact *c0 = &d->contacts[q0], cp;
    int k = q1 - q0, n0 = 0, normal0[COLLIDE_MAX_MANIFOLD], active[MAX_ROWS], na = 0;
    double C[MAX_ROWS], g[MAX_ROWS][2][6], mg[MAX_ROWS][2][6], t[2][3];
    const int *body = c0->body;
    for (int a = 0; a < k; a++) {
        xpbd_contact *c = &d->contacts[q0 + a];
        double p[2][3], pbar[2][3], d0[3];
        contact_points(d, c, p, pbar);
        for (int j = 0; j < 3; j++) d0[j] = p[0][j] - p[1][j];
        C[a] = dot(d0, c->n);
        rows(d, c, c->n, g[a]);
        if (C[a] < 0 || c->lambda_n > 0) normal0[n0++] = a;
    }
    if (n0 == 0) return;
    int friction = friction_rows(d, q0, k, normal0, n0, &cp, t, C, g), nrow = friction ? k + 3 : k;
    for (int r = 0; r < nrow; r++) xpbd_row_weight(m, body, g[r], mg[r], 0.0);
    /* The active set: the friction rows in use (tangents, turn) and the
     * normal rows; a friction row out of its cone leaves and the normal rows
     * start again from the initial set, then negative normal rows leave. */
    int use_t = friction, use_turn = friction, nn = n0, normal[COLLIDE_MAX_MANIFOLD];
    memcpy(normal, normal0, sizeof normal);
    double dl[MAX_ROWS];
    for (;;) {
        na = 0;
        for (int i = 0; i < nn; i++) active[na++] = normal[i];
        if (use_t) active[na++] = k, active[na++] = k + 1;
        if (use_turn) active[na++] = k + 2;
        double A[MAX_ROWS * MAX_ROWS], trace = 0, sol[MAX_ROWS] = { 0 };
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++) {
                double v = 0;
                for (int side = 0; side < 2; side++)
                    if (body[side] >= 0)
                        for (int r = 0; r < 6; r++) v += g[active[i]][side][r] * mg[active[j]][side][r];
                A[na * i + j] = v;
                if (i == j) trace += v;
            }
        if (!(trace > 0)) return;
        for (int i = 0; i < na; i++) {
            A[na * i + i] += 1e-6 * trace / na;
            dl[i] = -C[active[i]];
        }
        spd_solve(na, A, dl);
        for (int i = 0; i < na; i++) sol[active[i]] = dl[i];
        if (use_t || use_turn) {
            double load = 0, torque = 0, F[3];
            for (int a = 0; a < k; a++) {
                const xpbd_contact *c = &d->contacts[q0 + a];
                double lam = c->lambda_n + sol[a], r[3];
                if (lam <= 0) continue;
                load += lam;
                for (int j = 0; j < 3; j++) r[j] = c->a[0][j] - cp.a[0][j];
                if (body[0] >= 0) m3_mulv(d->R + 9 * body[0], r, r); /* world */
                double rn = dot(r, cp.n);
                torque += lam * sqrt(fmax(dot(r, r) - rn * rn, 0.0));
            }
            for (int j = 0; j < 3; j++) F[j] = c0->lambda_t[j] + sol[k] * t[0][j] + sol[k + 1] * t[1][j];
            int slide = use_t && dot(F, F) > c0->mu_s * c0->mu_s * load * load;
            int spin = use_turn && fabs(c0->lambda_twist + sol[k + 2]) > c0->mu_s * torque;
            if (slide || spin) {
                use_t &= !slide;
                use_turn &= !spin;
                nn = n0;
                memcpy(normal, normal0, sizeof normal);
                continue;
            }
        }
        int keep = 0;
        for (int i = 0; i < nn; i++)
            if (d->contacts[q0 + normal[i]].lambda_n + sol[normal[i]] >= 0) normal[keep++] = normal[i];
        if (keep == nn) break;
        nn = keep;
    }
    for (int i = 0; i < na; i++) {
        int r = active[i];
        if (r < k) d->contacts[q0 + r].lambda_n += dl[i];
        else if (r < k + 2)
            for (int j = 0; j < 3; j++) c0->lambda_t[j] += dl[i] * t[r - k][j];
        else c0->lambda_twist += dl[i];
        xpbd_row_apply(d, body, mg[r], dl[i]);
    }
}

/* The generalized inverse mass of a contact along the world direction u,
 * with the body sides' rows g and M⁻¹g. */
static double weight(const xpbd_model *m, const xpbd_data *d, const xpbd_contact *c, const double u[3], double g[2][6],
                     double mg[2][6])
{
    rows(d, c, u, g);
    double w = xpbd_row_weight(m, c->body, g, mg, 0.0);
    for (int i = 0; i < 2; i++)
        if (c->rod[i] >= 0) w += xpbd_rod_side_weight(d, c, i);
    return w;
}

/* The position update of a multiplier Δλ along u (eq. 58). */
static void move(xpbd_data *d, const xpbd_contact *c, const double u[3], const double mg[2][6], double dl)
{
    xpbd_row_apply(d, c->body, mg, dl);
    for (int i = 0; i < 2; i++)
        if (c->rod[i] >= 0) xpbd_rod_side_move(d, c, i, u, dl);
}

/* A contact with a rod side as scalar rows of compliance 0 (eqs. 56–58,
 * Tobin & Rucker §7.2–7.3 after Müller et al. 2020 §3.5): the normal row
 * C = (p0 − p1)·n ≥ 0, λ_n clamped at 0; then static friction, the
 * tangential part of Δp = (p0 − p̄0) − (p1 − p̄1) since the substep's start
 * taken back while the accumulated |λ_t| ≤ μs λ_n (beyond, the contact
 * slides and dynamic friction acts in the velocity pass). */
static void rod_contact_rows(const xpbd_model *m, xpbd_data *d, xpbd_contact *c)
{
    double p[2][3], pbar[2][3], dp[3], t[3], g[2][6], mg[2][6];
    contact_points(d, c, p, pbar);
    for (int k = 0; k < 3; k++) dp[k] = p[0][k] - p[1][k];
    double C = dot(dp, c->n);
    if (C >= 0 && c->lambda_n <= 0) return;
    double w = weight(m, d, c, c->n, g, mg);
    if (!(w > 0)) return;
    double dl = fmax(-C / w, -c->lambda_n);
    c->lambda_n += dl;
    move(d, c, c->n, mg, dl);
    if (!(c->mu_s > 0 && c->lambda_n > 0)) return;
    contact_points(d, c, p, pbar);
    for (int k = 0; k < 3; k++) dp[k] = (p[0][k] - pbar[0][k]) - (p[1][k] - pbar[1][k]);
    double dn = dot(dp, c->n);
    for (int k = 0; k < 3; k++) t[k] = dp[k] - dn * c->n[k];
    double L = sqrt(dot(t, t));
    if (!(L > 0)) return;
    for (int k = 0; k < 3; k++) t[k] /= L;
    w = weight(m, d, c, t, g, mg);
    if (!(w > 0)) return;
    double dlt = -L / w, lt[3];
    for (int k = 0; k < 3; k++) lt[k] = c->lambda_t[k] + dlt * t[k];
    if (dot(lt, lt) > c->mu_s * c->mu_s * c->lambda_n * c->lambda_n) return;
    memcpy(c->lambda_t, lt, sizeof lt);
    move(d, c, t, mg, dlt);
}

void xpbd_contacts_solve_positions(const xpbd_model *m, xpbd_data *d)
{
    for (int q0 = 0, q1; q0 < d->ncontact; q0 = q1) {
        if (d->contacts[q0].rod[0] >= 0) {
            rod_contact_rows(m, d, &d->contacts[q0]);
            q1 = q0 + 1;
            continue;
        }
        q1 = manifold_end(d, q0);
        manifold_block(m, d, q0, q1);
    }
}

/* An impulse P along the world direction u at the contact: [v; ω]_i += M_i⁻¹ g_i P
 * (rod sides: xpbd_rod_side_impulse). */
static void impulse(const xpbd_model *m, xpbd_data *d, const xpbd_contact *c, const double u[3], const double g[2][6],
                    double P)
{
    for (int i = 0; i < 2; i++)
        if (c->body[i] >= 0) xpbd_apply_velocity(m, d, c->body[i], g[i], P);
        else if (c->rod[i] >= 0) xpbd_rod_side_impulse(d, c, i, u, P);
}

/* The velocity pass of the contacts active in the solve (λ_n > 0), §3.6,
 * as impulses P = Δv / w, w the pair's generalized inverse mass along the
 * update: first restitution, P_n = (max(−e ṽ_n, 0) − v_n) / w_n along n;
 * then dynamic friction against v_t, P_t = min(μd F_n, |v_t| / w_t).
 * Müller et al.'s bound h μd f_n = μd λ_n / h is an impulse; F_n is the
 * contact's whole normal impulse of the substep, λ_n / h + P_n, since the
 * velocity pass carries part of the load (a sliding box pitches and its
 * corners' normal velocities are cancelled here: 8 % of the load of a
 * block sliding down 35°, which λ_n alone would leave without friction). */
void xpbd_contacts_solve_velocities(const xpbd_model *m, xpbd_data *d, double h)
{
    double gh = 2.0 * sqrt(dot(d->gravity, d->gravity)) * h;
    for (int q = 0; q < d->ncontact; q++) {
        xpbd_contact *c = &d->contacts[q];
        if (c->lambda_n <= 0) continue;
        double v[3], vt[3], g[2][6], mg[2][6];
        relative_velocity(d, c, v);
        double vn = dot(c->n, v);
        double e = fabs(c->vn0) <= gh ? 0.0 : c->e; /* no bounce from the slow approach of resting contact */
        double dvn = fmax(-e * c->vn0, 0.0) - vn, Pn = 0;
        double w = weight(m, d, c, c->n, g, mg);
        if (w > 0 && dvn != 0) {
            Pn = dvn / w;
            impulse(m, d, c, c->n, g, Pn);
        }
        if (c->mu_d <= 0) continue;
        relative_velocity(d, c, v);
        vn = dot(c->n, v);
        for (int k = 0; k < 3; k++) vt[k] = v[k] - vn * c->n[k];
        double lt = sqrt(dot(vt, vt));
        if (lt == 0) continue;
        double t[3] = { -vt[0] / lt, -vt[1] / lt, -vt[2] / lt };
        w = weight(m, d, c, t, g, mg);
        if (w > 0) impulse(m, d, c, t, g, fmin(c->mu_d * fmax(c->lambda_n / h + Pn, 0.0), lt / w));
    }
}

int xpbd_contact_points(const xpbd_model *m, const xpbd_data *d, double *out)
{
    (void)m;
    int n = 0;
    for (int q = 0; q < d->ncontact; q++) {
        const xpbd_contact *c = &d->contacts[q];
        if (c->lambda_n <= 0) continue;
        double p[3];
        if (c->rod[0] >= 0) xpbd_rod_side_point(d, c, 0, 0, p);
        else if (c->body[0] < 0) memcpy(p, c->a[0], sizeof p);
        else side_world(d->p + 3 * c->body[0], d->R + 9 * c->body[0], c->a[0], p);
        memcpy(out + 6 * n, p, sizeof p);
        memcpy(out + 6 * n + 3, c->n, sizeof c->n);
        n++;
    }
    return n;
}
