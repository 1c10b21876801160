/* test_loops.c — gates for loops (method 2), force elements, observe and find
 * in the dense reference.
 *
 *   test_loops model FILE        every check on one model (models/loops/)
 *   test_loops overconstrained FILE   a planar four-bar closed by a revolute
 *                                is rejected, with the point-on-line advice
 *
 * Per model, at near-manifold states (random walk with Gauss-Newton
 * projection, then a small tear so the Baumgarte terms are live):
 *   - rank(K) = nc at every trial
 *   - method 2 (dense_fd_full: CRBA + LU) vs an independent route:
 *     aba_fd_full, one aba_factor serving the 1 + nc right-hand sides
 *   - K and k (without Baumgarte) vs central differences of e and K qd
 *   - the maximal check: K qdd = k + kstab, and H qdd + C - tau - tau_e lies
 *     in range(K^T) (lambda by least squares)
 *   - TSDA generalized forces vs -f dl/dnu, dl/dnu by central differences of
 *     the anchor distance from mech_body_poses (independent kinematics)
 *   - observe vs poses and finite differences; find round trips
 *   - conservative loop models: energy and closure along a Verlet trajectory
 * Exit 0 on pass, 1 on any failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/elements.h"
#include "rbda/energy.h"
#include "rbda/loop_project.h"
#include "rbda/loop_rank.h"
#include "rbda/loop_sample.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#include "sim/integrate.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

#include "test_support.h"

#define TRIALS 300
#define GATE 1e-9

static int failures;

static void report(const char *model, const char *what, double err, double gate)
{
    int ok = err <= gate;
    printf("%s: %-44s %.3e (gate %.0e) %s\n", model, what, err, gate, ok ? "ok" : "FAIL");
    if (!ok) failures++;
}

static double *vec(int n) { return calloc((size_t)n + 1, sizeof(double)); }

/* The maximal check: returns max(|K qdd - k - kstab| scaled, |r - K^T lambda| / balance)
 * with r = ID(q, qd, qdd) - tau - tau_e (ID with the rotors' armature qdd) and lambda = (K K^T)^-1 K r. */
static double maximal_residual(const mech_model *m, dense_ws *dws, const double *q, const double *qd, const double *tau,
                               const double *fext, const double *act, const double *qdd)
{
    int nv = m->nv, nc = m->nc;
    double *K = vec(nc * nv), *k = vec(nc), *Kq = vec(nc), *r = vec(nv), *te = vec(nv), *C = vec(nv);
    double *KK = vec(nc * nc), *lam = vec(nc), *zero = vec(nv);
    int *piv = calloc((size_t)nc + 1, sizeof *piv);
    mech_loop_terms(m, dws, q, qd, NULL, NULL, K, k);
    mech_element_forces(m, dws, q, qd, act, te);
    dense_rnea(m, dws, q, qd, qdd, fext, r);
    dense_rnea(m, dws, q, qd, zero, fext, C);
    double scale = 1, err_k = 0, err_f = 0;
    for (int j = 0; j < nv; j++) {
        r[j] -= tau[j] + te[j];
        scale = fmax(scale, fmax(fabs(tau[j]), fmax(fabs(te[j]), fabs(C[j]))));
    }
    for (int i = 0; i < nc; i++) {
        for (int j = 0; j < nv; j++) Kq[i] += K[i * nv + j] * qdd[j];
        for (int s = 0; s < nc; s++)
            for (int j = 0; j < nv; j++) KK[i * nc + s] += K[i * nv + j] * K[s * nv + j];
        for (int j = 0; j < nv; j++) lam[i] += K[i * nv + j] * r[j];
    }
    err_k = mech_scaled_error(Kq, k, nc);
    if (nc && dense_lu(nc, KK, piv) == 0) dense_lu_solve(nc, KK, piv, lam);
    for (int j = 0; j < nv; j++) {
        double v = r[j];
        for (int i = 0; i < nc; i++) v -= K[i * nv + j] * lam[i];
        err_f = fmax(err_f, fabs(v) / scale);
    }
    free(K);
    free(k);
    free(Kq);
    free(r);
    free(te);
    free(C);
    free(KK);
    free(lam);
    free(zero);
    free(piv);
    return fmax(err_k, err_f);
}

/* e' = K qd and e'' = K qdd + K' qd against central differences of e and of
 * K qd along the drift q(t) with constant qd (qdd = 0, mech_integrate_q):
 * returns max of |K qd - de/dt| and |k_nostab + d(K qd)/dt|, scaled, where
 * k_nostab = (k + kstab) + 2 alpha e' + beta^2 e undoes the Baumgarte terms. */
static double loop_fd_error(const mech_model *m, dense_ws *dws, const double *q, const double *qd)
{
    int nc = m->nc, nq = m->nq;
    double *e = vec(nc), *ed = vec(nc), *k = vec(nc), *ep = vec(nc), *em = vec(nc), *edp = vec(nc), *edm = vec(nc);
    double *qp = vec(nq), *qm = vec(nq), *fd1 = vec(nc), *fd2 = vec(nc), h = 1e-5;
    mech_loop_terms(m, dws, q, qd, e, ed, NULL, k);
    memcpy(qp, q, (size_t)nq * sizeof *q);
    memcpy(qm, q, (size_t)nq * sizeof *q);
    mech_integrate_q(m, qp, qd, h);
    mech_integrate_q(m, qm, qd, -h);
    mech_loop_terms(m, dws, qp, qd, ep, edp, NULL, NULL);
    mech_loop_terms(m, dws, qm, qd, em, edm, NULL, NULL);
    for (int i = 0; i < m->nloop; i++) {
        const mech_loop *l = &m->loops[i];
        double a = 1 / l->stab;
        for (int r = l->cidx; r < l->cidx + l->nc; r++) {
            fd1[r] = (ep[r] - em[r]) / (2 * h);
            fd2[r] = -(edp[r] - edm[r]) / (2 * h);
            k[r] += 2 * a * ed[r] + a * a * e[r];
        }
    }
    double err = fmax(mech_scaled_error(ed, fd1, nc), mech_scaled_error(k, fd2, nc));
    free(e);
    free(ed);
    free(k);
    free(ep);
    free(em);
    free(edp);
    free(edm);
    free(qp);
    free(qm);
    free(fd1);
    free(fd2);
    return err;
}

/* World position of a POI by mech_body_poses (independent of loops.c). */
static void poi_world(const mech_model *m, const double *pose, int i, double x[3])
{
    const mech_poi *p = &m->pois[i];
    if (p->body < 0) {
        memcpy(x, p->pos, sizeof p->pos);
        return;
    }
    double R[9], d[3];
    quat_to_rot(pose + 7 * p->body + 3, R);
    m3_mulv(R, p->pos, d);
    for (int k = 0; k < 3; k++) x[k] = pose[7 * p->body + k] + d[k];
}

static double tsda_length(const mech_model *m, const double *pose, const mech_tsda *t)
{
    double a[3], b[3], d[3];
    poi_world(m, pose, t->poi_a, a);
    poi_world(m, pose, t->poi_b, b);
    for (int k = 0; k < 3; k++) d[k] = b[k] - a[k];
    return v3_norm(d);
}

/* TSDA: Q_j = -sum_t f_t dl_t/dnu_j, dl/dnu by central differences along
 * each velocity coordinate (mech_integrate_q: the tangent map for floating
 * bodies), ldot = dl/dnu . qd; against mech_element_forces without RSDAs. */
static double tsda_fd_error(const mech_model *m, dense_ws *dws, const double *q, const double *qd, const double *act)
{
    int nv = m->nv, nq = m->nq;
    mech_model mt = *m;
    mt.nrsda = 0;
    double *Q = vec(nv), *Qfd = vec(nv), *dl = vec(nv * m->ntsda), *qp = vec(nq), *dnu = vec(nv);
    double *pose = vec(7 * m->nb), h = 1e-6, scale = 1;
    mech_element_forces(&mt, dws, q, qd, act, Q);
    for (int j = 0; j < nv; j++) {
        for (int s = -1; s <= 1; s += 2) {
            memcpy(qp, q, (size_t)nq * sizeof *q);
            dnu[j] = s * h;
            mech_integrate_q(m, qp, dnu, 1.0);
            dnu[j] = 0;
            mech_body_poses(m, qp, pose);
            for (int t = 0; t < m->ntsda; t++) dl[t * nv + j] += s * tsda_length(m, pose, &m->tsdas[t]) / (2 * h);
        }
    }
    mech_body_poses(m, q, pose);
    for (int t = 0; t < m->ntsda; t++) {
        const mech_tsda *e = &m->tsdas[t];
        double l = tsda_length(m, pose, e), ldot = 0;
        for (int j = 0; j < nv; j++) ldot += dl[t * nv + j] * qd[j];
        double f = e->k * (l - e->l0) + e->c * ldot + (e->act >= 0 ? act[e->act] : 0);
        for (int j = 0; j < nv; j++) Qfd[j] -= f * dl[t * nv + j];
    }
    for (int j = 0; j < nv; j++) scale = fmax(scale, fabs(Qfd[j]));
    double err = 0;
    for (int j = 0; j < nv; j++) err = fmax(err, fabs(Q[j] - Qfd[j]) / scale);
    free(Q);
    free(Qfd);
    free(dl);
    free(qp);
    free(dnu);
    free(pose);
    return err;
}

/* observe vs poses (positions, lengths), central differences along qd
 * (velocities, rates) and q/qd (RSDA). */
static double observe_error(const mech_model *m, dense_ws *dws, const double *q, const double *qd)
{
    int n = mech_observe_len(m), nq = m->nq;
    double *o = vec(n), *ref = vec(n), *qp = vec(nq), *qm = vec(nq), *pose = vec(7 * m->nb);
    double *pp = vec(7 * m->nb), *pm = vec(7 * m->nb), h = 1e-6;
    mech_observe(m, dws, q, qd, o);
    memcpy(qp, q, (size_t)nq * sizeof *q);
    memcpy(qm, q, (size_t)nq * sizeof *q);
    mech_integrate_q(m, qp, qd, h);
    mech_integrate_q(m, qm, qd, -h);
    mech_body_poses(m, q, pose);
    mech_body_poses(m, qp, pp);
    mech_body_poses(m, qm, pm);
    for (int i = 0; i < m->npoi; i++) {
        double xp[3], xm[3];
        poi_world(m, pose, i, ref + 6 * i);
        poi_world(m, pp, i, xp);
        poi_world(m, pm, i, xm);
        for (int k = 0; k < 3; k++) ref[6 * i + 3 + k] = (xp[k] - xm[k]) / (2 * h);
    }
    double *rt = ref + 6 * m->npoi, *rr = rt + 2 * m->ntsda;
    for (int t = 0; t < m->ntsda; t++) {
        rt[2 * t] = tsda_length(m, pose, &m->tsdas[t]);
        rt[2 * t + 1] = (tsda_length(m, pp, &m->tsdas[t]) - tsda_length(m, pm, &m->tsdas[t])) / (2 * h);
    }
    for (int r = 0; r < m->nrsda; r++) {
        const mech_body *b = &m->bodies[m->rsdas[r].body];
        rr[2 * r] = q[b->qidx];
        rr[2 * r + 1] = qd[b->vidx];
    }
    double err = n ? mech_scaled_error(o, ref, n) : 0;
    free(o);
    free(ref);
    free(qp);
    free(qm);
    free(pose);
    free(pp);
    free(pm);
    return err;
}

/* Every name round-trips; a bogus name and a bogus kind give -1. */
static int find_failures(const mech_model *m)
{
    int bad = 0;
    for (int i = 0; i < m->npoi; i++) bad += mech_find(m, "poi", m->pois[i].name) != 6 * i;
    for (int i = 0; i < m->ntsda; i++) {
        bad += mech_find(m, "tsda", m->tsdas[i].name) != 6 * m->npoi + 2 * i;
        bad += mech_find(m, "act", m->tsdas[i].name) != m->tsdas[i].act;
    }
    for (int i = 0; i < m->nrsda; i++) {
        bad += mech_find(m, "rsda", m->rsdas[i].name) != 6 * m->npoi + 2 * m->ntsda + 2 * i;
        bad += mech_find(m, "act", m->rsdas[i].name) != m->rsdas[i].act;
    }
    const char *kinds[] = { "poi", "tsda", "rsda", "act" };
    for (int k = 0; k < 4; k++) bad += mech_find(m, kinds[k], "no_such_name") != -1;
    if (m->npoi) bad += mech_find(m, "body", m->pois[0].name) != -1;
    return bad;
}

/* A trajectory: for a conservative loop model (no elements), 1 s of
 * Störmer–Verlet at dt 1e-4 on dense_fd_full from the projected q0 and a
 * consistent qd must conserve energy and stay closed — what a wrong sign in k
 * or in the Baumgarte terms would break even where the gates above agree. */
static void check_trajectory(const mech_model *m, dense_ws *dws)
{
    int nq = m->nq, nv = m->nv;
    double *q = vec(nq), *qd = vec(nv), *tau = vec(nv), *qdd = vec(nv), *vmid = vec(nv), *e = vec(m->nc);
    dense_engine de = { m, dws };
    mech_rng rng;
    mech_rng_seed(&rng, 5);
    mech_model_initial_state(m, q, NULL);
    mech_loop_project(m, dws, q);
    for (int j = 0; j < nv; j++) qd[j] = mech_rng_uniform(&rng, -1, 1);
    mech_loop_project_velocity(m, dws, q, qd);
    double KE, E0 = mech_energy(m, dws, q, qd, &KE, NULL), exc = 0, closure = 0, scale = KE;
    for (int i = 0; i < m->nb; i++) scale += m->bodies[i].mass * v3_norm(m->gravity);
    dense_engine_fd(&de, q, qd, tau, NULL, qdd);
    for (int s = 0; s < 10000; s++) {
        mech_step_verlet(m, dense_engine_fd, &de, q, qd, tau, NULL, qdd, vmid, 1e-4);
        exc = fmax(exc, fabs(mech_energy(m, dws, q, qd, NULL, NULL) - E0));
        mech_loop_terms(m, dws, q, NULL, e, NULL, NULL, NULL);
        for (int i = 0; i < m->nc; i++) closure = fmax(closure, fabs(e[i]));
    }
    printf("%s: Verlet 1 s, dt 1e-4: energy excursion %.3e J of scale %.3e J, max closure |e| %.3e\n", m->name, exc,
           scale, closure);
    report(m->name, "trajectory energy excursion / scale", exc / scale, 1e-6);
    report(m->name, "trajectory max closure |e|", closure, 1e-6);
    free(q);
    free(qd);
    free(tau);
    free(qdd);
    free(vmid);
    free(e);
}

static void check_model(const mech_model *m)
{
    int nq = m->nq, nv = m->nv;
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    double *q = vec(nq), *qd = vec(nv), *qt = vec(nq), *qdt = vec(nv), *tau = vec(nv), *act = vec(m->nact);
    double *fext = vec(6 * m->nb), *qdd = vec(nv), *qdd_a = vec(nv), *e = vec(m->nc);
    double e_fd = 0, e_m2 = 0, e_max = 0, e_tsda = 0, e_obs = 0, margin_min = 1, closure = 0, tear_err = 0;
    int rank_bad = 0, rank_min = m->nc;
    mech_rng rng;
    mech_rng_seed(&rng, 8);
    printf("%s: nb %d, nq %d, nv %d, nc %d, loops %d, tsda %d, rsda %d, nact %d\n", m->name, m->nb, nq, nv, m->nc,
           m->nloop, m->ntsda, m->nrsda, m->nact);
    mech_model_initial_state(m, q, qd);
    mech_loop_terms(m, dws, q, NULL, e, NULL, NULL, NULL);
    double e0 = 0;
    for (int i = 0; i < m->nc; i++) e0 = fmax(e0, fabs(e[i]));
    printf("%s: closure error at q0 %.3e, after projection %.3e\n", m->name, e0, mech_loop_project(m, dws, q));
    for (int t = 0; t < TRIALS; t++) {
        closure = fmax(closure, mech_manifold_walk(m, dws, &rng, q, 0.2));
        mech_sample_state(m, &rng, NULL, qdt, tau, fext);
        mech_loop_project_velocity(m, dws, q, qdt);
        memcpy(qt, q, (size_t)nq * sizeof *q);
        mech_manifold_tear(m, dws, &rng, qt, qdt, 1e-3);
        mech_loop_terms(m, dws, qt, NULL, e, NULL, NULL, NULL);
        for (int i = 0; i < m->nc; i++) tear_err = fmax(tear_err, fabs(e[i]));
        for (int i = 0; i < m->nact; i++) act[i] = mech_rng_uniform(&rng, -5, 5);
        if (m->nc) {
            double margin;
            mech_loop_terms(m, dws, qt, NULL, NULL, NULL, dws->K, NULL);
            int rank = mech_loop_rank(m, dws, dws->K, NULL, &margin);
            rank_bad += rank != m->nc;
            rank_min = rank < rank_min ? rank : rank_min;
            margin_min = fmin(margin_min, margin);
        }
        if (m->nc) e_fd = fmax(e_fd, loop_fd_error(m, dws, qt, qdt));
        dense_fd_full(m, dws, qt, qdt, tau, fext, act, qdd);
        aba_fd_full(m, aws, dws, qt, qdt, tau, fext, act, qdd_a);
        e_m2 = fmax(e_m2, mech_scaled_error(qdd_a, qdd, nv));
        e_max = fmax(e_max, maximal_residual(m, dws, qt, qdt, tau, fext, act, qdd));
        if (m->ntsda) e_tsda = fmax(e_tsda, tsda_fd_error(m, dws, qt, qdt, act));
        e_obs = fmax(e_obs, observe_error(m, dws, qt, qdt));
    }
    printf("%s: %d trials, walk closure max|e| %.3e, torn max|e| %.3e, min rank(K) %d of nc %d, "
           "min Gram-Schmidt kept fraction %.3e\n",
           m->name, TRIALS, closure, tear_err, rank_min, m->nc, margin_min);
    report(m->name, "trials with rank(K) < nc", rank_bad, 0);
    report(m->name, "walk stays on the manifold (max|e|)", closure, 1e-12);
    if (m->nc) report(m->name, "K qd, k vs central differences of e, K qd", e_fd, 1e-6);
    report(m->name, "method 2: |qdd_aba - qdd_crba| scaled", e_m2, GATE);
    report(m->name, "maximal: K qdd = k + kstab, force in range K^T", e_max, GATE);
    if (m->ntsda) report(m->name, "TSDA J^T F vs -f dl/dnu (central diff.)", e_tsda, 1e-6);
    if (mech_observe_len(m)) report(m->name, "observe vs poses / central differences", e_obs, 1e-6);
    report(m->name, "find: names that do not round-trip", find_failures(m), 0);
    if (m->nc && !m->ntsda && !m->nrsda) check_trajectory(m, dws);
    free(q);
    free(qd);
    free(qt);
    free(qdt);
    free(tau);
    free(act);
    free(fext);
    free(qdd);
    free(qdd_a);
    free(e);
    dense_ws_free(dws);
    aba_ws_free(aws);
}

/* A planar four-bar closed by a revolute (tests/fixtures/overconstrained_fourbar.mech):
 * nc 5, rank 2 -> rejected with advice. */
static void check_overconstrained(const char *path)
{
    mech_model *m = test_load_model(path);
    dense_ws *ws = dense_ws_new(m);
    double *q = vec(m->nq);
    char msg[512] = "";
    mech_model_initial_state(m, q, NULL);
    int rank = mech_loop_check(m, ws, q, msg, sizeof msg);
    printf("overconstrained: nc %d, rank %d: %s\n", m->nc, rank, msg);
    report("overconstrained", "rank(K) of a revolute-closed planar loop", fabs(rank - 2.0), 0);
    report("overconstrained", "message advises point-on-line", strstr(msg, "point-on-line") ? 0 : 1, 0);
    /* the open-time check: refused at the loop's line and name, 5 - 2 rows redundant */
    mech_error err = { .file = "fourbar.mech" };
    char place[MECH_ERROR_MAX + 160];
    int refused = mech_loops_check(m, &err) == -1;
    mech_error_format(&err, place, sizeof place);
    printf("overconstrained: open: %s\n", place);
    report("overconstrained", "refused when opened", !refused, 0);
    report("overconstrained", "error at the loop's line 26, column 6 of its name", err.line != 26 || err.col != 6, 0);
    const char *want = "fourbar.mech:26:6: loop 'pivot' is over-constrained: rank(K) = 2 < nc = 5, 3 redundant rows";
    report("overconstrained", "error names the loop and 3 redundant rows", strncmp(place, want, strlen(want)) != 0, 0);
    free(q);
    dense_ws_free(ws);
    mech_model_free(m);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "model") == 0) {
        mech_model *m = test_load_model(argv[2]);
        mech_error err = { .file = "" };
        report(m->name, "refused when opened (mech_loops_check)", mech_loops_check(m, &err), 0);
        check_model(m);
        mech_model_free(m);
    } else if (argc == 3 && strcmp(argv[1], "overconstrained") == 0) {
        check_overconstrained(argv[2]);
    } else {
        fprintf(stderr, "usage: test_loops model FILE | overconstrained FILE\n");
        return 2;
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
