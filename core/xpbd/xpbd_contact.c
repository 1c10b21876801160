/* xpbd_contact.c — rigid contact in the XPBD substeps, after Müller et al.
 * 2020 §3.5–3.6 (docs/xpbd.md, "Contact"):
 *   per step     the broad phase over the colliders' boxes, grown by the
 *                step's motion (xpbd_broadphase.c);
 *   per substep  the narrow phase at the substep's start pose, with a margin
 *                of the substep's motion (contact points a_i fixed in the
 *                bodies, normal n fixed in the world);
 *   per solve    the normal constraints C = (p0 − p1)·n ≥ 0 with compliance 0,
 *                then static friction: the tangential motion of the contact
 *                points since the substep's start, Δp_t, held (compliance 0)
 *                at the manifold's centre of pressure while
 *                |λ_t| ≤ μs Σ λ_n;
 *   velocities   restitution to n·v = max(−e ṽ_n, 0), e = 0 when
 *                |ṽ_n| ≤ 2|g|h, then dynamic friction, an impulse against
 *                v_t bounded by μd times the normal impulse.
 * p_i = x_i + R_i a_i; the rows are [u; a_i × R_iᵀu] (right perturbations,
 * body-frame rotations), solved by the joints' row update (eqs. 56–58). */
#include "xpbd/xpbd_internal.h"

#include "spatial/so3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* World pose of every collider at the data's current body poses. */
static void place(const xpbd_model *m, xpbd_data *d)
{
    for (int i = 0; i < m->ncollider; i++) {
        const xpbd_collider *c = &m->colliders[i];
        xpbd_placed *s = &d->placed[i];
        s->type = c->type;
        memcpy(s->size, c->size, sizeof s->size);
        if (c->body < 0) {
            memcpy(s->c, c->pos, sizeof s->c);
            memcpy(s->R, c->R, sizeof s->R);
            continue;
        }
        const double *p = d->p + 3 * c->body, *R = d->R + 9 * c->body;
        xm3_mulv(R, c->pos, s->c);
        for (int k = 0; k < 3; k++) s->c[k] += p[k];
        xm3_mul(R, c->R, s->R);
    }
}

/* An upper bound on how far any point of collider i moves in time t:
 * (|v| + |ω| ρ) t + |g| t², ρ the collider's reach from the CoM. */
static double motion(const xpbd_model *m, const xpbd_data *d, int i, double t)
{
    const xpbd_collider *c = &m->colliders[i];
    if (c->body < 0) return 0;
    const double *v = d->v + 3 * c->body, *w = d->w + 3 * c->body, *s = c->size;
    double reach = sqrt(dot(c->pos, c->pos));
    switch (c->type) {
    case XPBD_SHAPE_SPHERE: reach += s[0]; break;
    case XPBD_SHAPE_BOX: reach += sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]); break;
    default: reach += s[0] + s[1]; break;
    }
    return (sqrt(dot(v, v)) + sqrt(dot(w, w)) * reach) * t + sqrt(dot(d->gravity, d->gravity)) * t * t;
}

static int excluded(int i, int j, const void *user)
{
    const xpbd_model *m = user;
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
    place(m, d);
    for (int i = 0; i < m->ncollider; i++) d->collider_grow[i] = 2.0 * motion(m, d, i, d->dt);
    return xpbd_broadphase_run(&d->broad, m->ncollider, d->placed, d->collider_static, d->collider_grow, excluded, m);
}

static int push_contact(xpbd_data *d, xpbd_contact **out)
{
    if (d->ncontact == d->cap_contact) {
        int cap = d->cap_contact ? 2 * d->cap_contact : 64;
        xpbd_contact *g = realloc(d->contacts, (size_t)cap * sizeof *g);
        if (!g) return -1;
        d->contacts = g;
        d->cap_contact = cap;
    }
    *out = &d->contacts[d->ncontact++];
    return 0;
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
    xm3_tmulv(d->R + 9 * body, r, a);
}

int xpbd_contacts_find(const xpbd_model *m, xpbd_data *d, double h)
{
    d->ncontact = 0;
    place(m, d);
    for (int q = 0; q < d->broad.n; q++) {
        int i = d->broad.pairs[2 * q], j = d->broad.pairs[2 * q + 1];
        xpbd_manifold mf;
        double margin = 2.0 * (motion(m, d, i, h) + motion(m, d, j, h));
        int np = xpbd_collide(&d->placed[i], &d->placed[j], margin, &mf);
        const xpbd_collider *ci = &m->colliders[i], *cj = &m->colliders[j];
        for (int k = 0; k < np; k++) {
            xpbd_contact *c;
            if (push_contact(d, &c)) return -1;
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
            c->lambda_n = 0;
            c->lambda_t[0] = c->lambda_t[1] = c->lambda_t[2] = c->lambda_twist = 0;
        }
    }
    return 0;
}

/* World point p = x + R a of a body side at pose (x, R). */
static void side_world(const double *x, const double *R, const double a[3], double p[3])
{
    double r[3];
    xm3_mulv(R, a, r);
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
        xm3_tmulv(d->R + 9 * c->body[i], u, ub);
        xv3_cross(c->a[i], ub, g[i] + 3);
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
    xv3_cross(d->w + 3 * body, a, wa);
    xm3_mulv(d->R + 9 * body, wa, out);
    for (int k = 0; k < 3; k++) out[k] += d->v[3 * body + k];
}

static void relative_velocity(const xpbd_data *d, const xpbd_contact *c, double v[3])
{
    double v0[3], v1[3];
    point_velocity(d, c->body[0], c->a[0], v0);
    point_velocity(d, c->body[1], c->a[1], v1);
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
        if (b < 0) {
            memcpy(p[i], c->a[i], sizeof p[i]);
            memcpy(pbar[i], c->a[i], sizeof pbar[i]);
            continue;
        }
        side_world(d->p + 3 * b, d->R + 9 * b, c->a[i], p[i]);
        side_world(d->p_prev + 3 * b, d->R_prev + 9 * b, c->a[i], pbar[i]);
    }
}

/* Torsional static friction of a manifold (contacts c0 .. q1, centre of
 * pressure cp): the turn about n of side 0 against side 1 since
 * the substep's start, n·(R0 (R0 ⊟ R̄0) − R1 (R1 ⊟ R̄1)), held (rows
 * [0; ±R_iᵀn]) while |λ_τ| ≤ μs Σ_k λ_n,k ρ_k, ρ_k the point's distance from
 * the centre across n: the most torque the points' cones hold. */
static void static_torsion(const xpbd_model *m, xpbd_data *d, xpbd_contact *c0, int q1, const xpbd_contact *cp)
{
    double rho = 0, C = 0, g[2][6], mg[2][6];
    for (const xpbd_contact *c = c0; c < d->contacts + q1; c++) {
        double r[3];
        for (int k = 0; k < 3; k++) r[k] = c->a[0][k] - cp->a[0][k];
        if (c->body[0] >= 0) xm3_mulv(d->R + 9 * c->body[0], r, r);   /* world */
        double rn = dot(r, cp->n);
        rho += c->lambda_n * sqrt(fmax(dot(r, r) - rn * rn, 0.0));
    }
    if (rho <= 0) return;
    for (int i = 0; i < 2; i++) {
        memset(g[i], 0, sizeof g[i]);
        int b = cp->body[i];
        if (b < 0) continue;
        double th[3], thw[3], sg = i == 0 ? 1.0 : -1.0;
        so3_minus(d->R + 9 * b, d->R_prev + 9 * b, th);
        xm3_mulv(d->R + 9 * b, th, thw);
        C += sg * dot(cp->n, thw);
        xm3_tmulv(d->R + 9 * b, cp->n, g[i] + 3);
        for (int k = 3; k < 6; k++) g[i][k] *= sg;
    }
    double w = xpbd_row_weight(m, cp->body, g, mg, 0.0);
    if (C == 0 || w <= 0) return;
    double dl = -C / w;
    if (fabs(c0->lambda_twist + dl) > c0->mu_s * rho) return;
    c0->lambda_twist += dl;
    xpbd_row_apply(d, cp->body, mg, dl);
}

/* Static friction of one manifold, contacts q0 .. (returned end), at its
 * centre of pressure: the λ_n-weighted mean of its points, a point fixed in
 * each side.  Its motion since the substep's start, Δp = (p0 − p̄0) −
 * (p1 − p̄1), has its tangential part held (compliance 0) while the
 * manifold's friction stays in its cone, |λ_t| ≤ μs Σ λ_n (λ_t kept on the
 * manifold's first contact); otherwise the manifold slides and dynamic
 * friction acts in the velocity pass.  One row per manifold: point by point,
 * the first point solved would have to stop the whole body on its share of
 * the load, and the order of the points would turn a resting box. */
static int static_friction_patch(const xpbd_model *m, xpbd_data *d, int q0)
{
    xpbd_contact *c0 = &d->contacts[q0], cp = *c0;
    int q1 = q0;
    double ln = 0;
    memset(cp.a, 0, sizeof cp.a);
    while (q1 < d->ncontact && d->contacts[q1].collider[0] == c0->collider[0] &&
           d->contacts[q1].collider[1] == c0->collider[1]) {
        const xpbd_contact *c = &d->contacts[q1++];
        ln += c->lambda_n;
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 3; k++) cp.a[i][k] += c->lambda_n * c->a[i][k];
    }
    if (ln <= 0 || c0->mu_s <= 0) return q1;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) cp.a[i][k] /= ln;
    double p[2][3], pbar[2][3], g[2][6], mg[2][6], dp[3], t[3];
    contact_points(d, &cp, p, pbar);
    for (int k = 0; k < 3; k++) dp[k] = (p[0][k] - pbar[0][k]) - (p[1][k] - pbar[1][k]);
    double dn = dot(dp, cp.n);
    for (int k = 0; k < 3; k++) t[k] = dp[k] - dn * cp.n[k];
    double Ct = sqrt(dot(t, t));
    if (Ct == 0) return q1;
    for (int k = 0; k < 3; k++) t[k] /= Ct;
    rows(d, &cp, t, g);
    double w = xpbd_row_weight(m, cp.body, g, mg, 0.0);
    if (w <= 0) return q1;
    double dl = -Ct / w, F[3];
    for (int k = 0; k < 3; k++) F[k] = c0->lambda_t[k] + dl * t[k];
    if (dot(F, F) <= c0->mu_s * c0->mu_s * ln * ln) {
        memcpy(c0->lambda_t, F, sizeof F);
        xpbd_row_apply(d, cp.body, mg, dl);
    }
    static_torsion(m, d, c0, q1, &cp);
    return q1;
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

/* The normal rows of one manifold (contacts q0 .. q1) solved together, as
 * the joints' block mode solves a vector constraint (§8.1): over the active
 * rows (penetrating, or pressing earlier in this substep)
 * [∇C M⁻¹ ∇Cᵀ + εI] Δλ = −C, ε = 1e-6 of the mean diagonal (four coplanar
 * points have a rank-3 system; ε picks the least-norm share of the load),
 * then rows whose λ would turn negative leave the set and the rest is
 * solved again (λ_n ≥ 0).  One row after another, a box's first corners
 * would tilt it and the others' corrections would not cancel. */
static void normal_block(const xpbd_model *m, xpbd_data *d, int q0, int q1)
{
    int k = q1 - q0, active[XPBD_MAX_MANIFOLD], na = 0;
    double C[XPBD_MAX_MANIFOLD], g[XPBD_MAX_MANIFOLD][2][6], mg[XPBD_MAX_MANIFOLD][2][6];
    const int *body = d->contacts[q0].body;
    for (int a = 0; a < k; a++) {
        xpbd_contact *c = &d->contacts[q0 + a];
        double p[2][3], pbar[2][3], d0[3];
        contact_points(d, c, p, pbar);
        for (int j = 0; j < 3; j++) d0[j] = p[0][j] - p[1][j];
        C[a] = dot(d0, c->n);
        rows(d, c, c->n, g[a]);
        xpbd_row_weight(m, body, g[a], mg[a], 0.0);
        if (C[a] < 0 || c->lambda_n > 0) active[na++] = a;
    }
    double dl[XPBD_MAX_MANIFOLD];
    for (int pass = 0; pass <= k && na > 0; pass++) {
        double A[XPBD_MAX_MANIFOLD * XPBD_MAX_MANIFOLD], trace = 0;
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++) {
                double s = 0;
                for (int side = 0; side < 2; side++)
                    if (body[side] >= 0)
                        for (int r = 0; r < 6; r++) s += g[active[i]][side][r] * mg[active[j]][side][r];
                A[na * i + j] = s;
                if (i == j) trace += s;
            }
        if (!(trace > 0)) return;
        for (int i = 0; i < na; i++) {
            A[na * i + i] += 1e-6 * trace / na;
            dl[i] = -C[active[i]];
        }
        xpbd_spd_solve(na, A, dl);
        int keep = 0;
        for (int i = 0; i < na; i++)
            if (d->contacts[q0 + active[i]].lambda_n + dl[i] >= 0) active[keep++] = active[i];
        if (keep == na) break;
        na = keep;
    }
    for (int i = 0; i < na; i++) {
        d->contacts[q0 + active[i]].lambda_n += dl[i];
        xpbd_row_apply(d, body, mg[active[i]], dl[i]);
    }
}

/* Normal rows of every manifold first, then static friction: friction read
 * after every normal correction of the sweep. */
void xpbd_contacts_solve_positions(const xpbd_model *m, xpbd_data *d)
{
    for (int q0 = 0, q1; q0 < d->ncontact; q0 = q1) {
        q1 = manifold_end(d, q0);
        normal_block(m, d, q0, q1);
    }
    for (int q0 = 0, q1; q0 < d->ncontact; q0 = q1)
        q1 = static_friction_patch(m, d, q0);
}

/* An impulse P along the world direction u at the contact: [v; ω]_i += M_i⁻¹ g_i P. */
static void impulse(const xpbd_model *m, xpbd_data *d, const xpbd_contact *c, const double g[2][6], double P)
{
    for (int i = 0; i < 2; i++)
        if (c->body[i] >= 0) xpbd_apply_velocity(m, d, c->body[i], g[i], P);
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
        double e = fabs(c->vn0) <= gh ? 0.0 : c->e;   /* no bounce from the slow approach of resting contact */
        double dvn = fmax(-e * c->vn0, 0.0) - vn, Pn = 0;
        rows(d, c, c->n, g);
        double w = xpbd_row_weight(m, c->body, g, mg, 0.0);
        if (w > 0 && dvn != 0) {
            Pn = dvn / w;
            impulse(m, d, c, g, Pn);
        }
        if (c->mu_d <= 0) continue;
        relative_velocity(d, c, v);
        vn = dot(c->n, v);
        for (int k = 0; k < 3; k++) vt[k] = v[k] - vn * c->n[k];
        double lt = sqrt(dot(vt, vt));
        if (lt == 0) continue;
        double t[3] = { -vt[0] / lt, -vt[1] / lt, -vt[2] / lt };
        rows(d, c, t, g);
        w = xpbd_row_weight(m, c->body, g, mg, 0.0);
        if (w > 0) impulse(m, d, c, g, fmin(c->mu_d * fmax(c->lambda_n / h + Pn, 0.0), lt / w));
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
        if (c->body[0] < 0) memcpy(p, c->a[0], sizeof p);
        else side_world(d->p + 3 * c->body[0], d->R + 9 * c->body[0], c->a[0], p);
        memcpy(out + 6 * n, p, sizeof p);
        memcpy(out + 6 * n + 3, c->n, sizeof c->n);
        n++;
    }
    return n;
}
