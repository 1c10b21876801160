/* track_contact.h — a track band's contact against its rollers (internal to
 * core/contact): the pin law on the end rollers, the face law on the road
 * wheels, all pairs, reactions as equal and opposite base-coordinate
 * wrenches.  Laws: laws.h; equations: docs/contact.md "Track". */
#ifndef MECH_TRACK_CONTACT_H
#define MECH_TRACK_CONTACT_H

#include "contact/laws.h"
#include "rbda/kinematics.h"

typedef struct {
    int body;
    pin_params P;
} track_pin_roller;
typedef struct {
    int body;
    face_params P;
} track_face_roller;

typedef struct {
    const mech_track *t;
    int nend, nface;
    track_pin_roller pin[MECH_MAX_ROLLERS];
    track_face_roller face[MECH_MAX_ROLLERS];
} track_band;

/* The band's law constants from the model; k0: the design pose (q0), which
 * phases the drive sprocket's pockets and counts the pins on each rim. */
void track_band_init(track_band *b, const mech_model *m, const mech_track *t, const mech_body_kin *k0);
/* Add every pin and face force of the band at kinematics k into fext. */
void track_band_forces(const track_band *b, const mech_body_kin *k, double dt, double *fext);
/* The band's stored contact energy at k. */
double track_band_potential(const track_band *b, const mech_body_kin *k);
/* Pin pi (0 .. nshoe-1) relative to end roller e in that roller's frame. */
void track_pin_in_roller(const track_band *b, const mech_body_kin *k, int pi, int e, double d[3]);

/* fext[6 body ..] += s [p x F; F] (base coordinates). */
static inline void contact_add_wrench(double *fext, int body, const double p[3], const double F[3], double s)
{
    double *w = fext + 6 * body;
    w[0] += s * (p[1] * F[2] - p[2] * F[1]);
    w[1] += s * (p[2] * F[0] - p[0] * F[2]);
    w[2] += s * (p[0] * F[1] - p[1] * F[0]);
    w[3] += s * F[0];
    w[4] += s * F[1];
    w[5] += s * F[2];
}

/* The pair: +[p x F; F] on body a, exactly its negation on body b (the
 * moment computed once). */
static inline void contact_add_pair(double *fext, int a, int b, const double p[3], const double F[3])
{
    double n[3] = { p[1] * F[2] - p[2] * F[1], p[2] * F[0] - p[0] * F[2], p[0] * F[1] - p[1] * F[0] };
    double *wa = fext + 6 * a, *wb = fext + 6 * b;
    for (int c = 0; c < 3; c++) {
        wa[c] += n[c];
        wa[3 + c] += F[c];
        wb[c] -= n[c];
        wb[3 + c] -= F[c];
    }
}

#endif
