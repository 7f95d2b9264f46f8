/* particles — particle updates: explicit Euler with reflecting walls (2D,
 * 3D, array-of-structures, several steps, inelastic walls), velocity Verlet
 * in a harmonic trap and under gravity with a floor, gravity with linear,
 * exponential and quadratic drag, periodic wrapping, a Boris push in
 * uniform E and B fields; particle-in-cell deposition to 1D/2D/3D grids
 * (nearest grid point, cloud-in-cell, triangular-shaped cloud, periodic or
 * clamped, charge or current), gathering grid fields back to particles and
 * a gather-push step; SPH-like densities (poly6 and cubic spline kernels,
 * 2D and 3D, variable smoothing length, with an equation of state) and
 * softened Lennard-Jones forces over all pairs within small sets;
 * per-set kinetic energy and momentum; binning particles into cells.
 * f32 and f64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_optext.h"
#include "gen_tmpl.h"

#define FAMILY_WHAT "particles"

typedef struct Op {
    const char *tag;
    const char *types;  /* space-separated instances: "f32" or "i32/f32" ($T/$V) */
    int kind;           /* which configs */
    const char *entry;
    const char *pre;    /* includes, the opening comment, helpers */
    const char *sig;    /* the C parameter list */
    const char *body;
    const char *flops, *bytes;  /* $S / $W: sizes of $T / $V */
    const char *shapes; /* "x=n,m;y=n" */
    const char *fills;  /* "x=int:lo:hi;y=uni:lo:hi;p=part:total;a=sorted" */
    const char *inout;  /* space-separated in-out buffers */
    const char *scalars;/* "alpha=1.5;beta=0.5" */
    double tol[2];      /* atol, rtol for non-f64 instances; 0: defaults */
    double tol64[2];    /* the same for f64 instances */
} Op;

enum { P, STEPS, DEP1, DEP2, DEP3, SETS };

static void configs(GenProgram *p, int kind)
{
    static const char *const C[][4] = {
        [P] = {"n=10000", "n=1", "n=1009", "n=33554432"},
        [STEPS] = {"n=10000,steps=4", "n=1,steps=1", "n=1009,steps=3", "n=16777216,steps=4"},
        [DEP1] = {"n=20000,ng=1000", "n=1,ng=1", "n=1009,ng=37", "n=67108864,ng=1048576"},
        [DEP2] = {"n=20000,nx=64,ny=48", "n=1,nx=1,ny=1", "n=1009,nx=7,ny=11", "n=67108864,nx=1024,ny=1024"},
        [DEP3] = {"n=20000,nx=16,ny=16,nz=16", "n=1,nx=1,ny=1,nz=1", "n=1009,nx=5,ny=7,nz=3",
                  "n=67108864,nx=128,ny=128,nz=128"},
        [SETS] = {"nsets=64,S=64", "nsets=1,S=1", "nsets=7,S=13", "nsets=262144,S=64"},
    };
    gen_config(p, "small", C[kind][0]);
    gen_config(p, "edge", C[kind][1]);
    gen_config(p, "edge-prime", C[kind][2]);
    gen_config(p, "large", C[kind][3]);
}

#define OP(...) {__VA_ARGS__, .tol64 = {0, 0}}
#define S2 "x=n;y=n;vx=n;vy=n"
#define S3 "x=n;y=n;z=n;vx=n;vy=n;vz=n"
#define IO2 "x y vx vy"
#define IO3 "x y z vx vy vz"
#define BOX2 "x=uni:0:1;y=uni:0:1"
#define BOX3 "x=uni:0:1;y=uni:0:1;z=uni:0:1"
#define REFLECT(c, pad)                                                                             \
    pad "if (" c " < 0) {\n" pad "    " c " = -" c ";\n" pad "    v" c " = -v" c ";\n" pad "}\n"      \
    pad "if (" c " > L) {\n" pad "    " c " = 2 * L - " c ";\n" pad "    v" c " = -v" c ";\n" pad "}\n"
#define SETLOOP_HEAD                                                                                 \
    "    for (int s = 0; s < nsets; s++) {\n        int base = s * S;\n"                              \
    "        for (int i = base; i < base + S; i++) {\n"
#define PI_DEF "#define PI 3.14159265358979323846\n\n"

static const Op OPS[] = {
    OP("euler-reflect-2d", "f32 f64", P, "step_particles",
       "/* One explicit Euler step x += v dt in the box [0, L]^2; a particle that\n"
       " * leaves through a wall is mirrored back and its velocity component\n"
       " * reversed (dt |v| is small against L). */\n",
       "$T *x, $T *y, $T *vx, $T *vy, $T dt, $T L, int n",
       "    for (int i = 0; i < n; i++) {\n        $T px = x[i] + dt * vx[i], py = y[i] + dt * vy[i];\n"
       "        if (px < 0) {\n            px = -px;\n            vx[i] = -vx[i];\n        }\n"
       "        if (px > L) {\n            px = 2 * L - px;\n            vx[i] = -vx[i];\n        }\n"
       "        if (py < 0) {\n            py = -py;\n            vy[i] = -vy[i];\n        }\n"
       "        if (py > L) {\n            py = 2 * L - py;\n            vy[i] = -vy[i];\n        }\n"
       "        x[i] = px;\n        y[i] = py;\n    }\n",
       "6*n", "8*$S*n", S2, BOX2, IO2, "dt=0.01;L=1"),
    OP("euler-reflect-3d", "f32 f64", P, "step_particles",
       "/* One explicit Euler step r += v dt in the box [0, L]^3 with reflecting\n * walls. */\n"
       "static void reflect($T *p, $T *v, $T L)\n{\n"
       "    if (*p < 0) {\n        *p = -*p;\n        *v = -*v;\n    }\n"
       "    if (*p > L) {\n        *p = 2 * L - *p;\n        *v = -*v;\n    }\n}\n\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T dt, $T L, int n",
       "    for (int i = 0; i < n; i++) {\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        z[i] += dt * vz[i];\n        reflect(&x[i], &vx[i], L);\n        reflect(&y[i], &vy[i], L);\n"
       "        reflect(&z[i], &vz[i], L);\n    }\n",
       "9*n", "12*$S*n", S3, BOX3, IO3, "dt=0.01;L=1"),
    OP("euler-reflect-aos", "f32 f64", P, "step_particles",
       "/* One explicit Euler step for particles stored as structures, pos[i] and\n"
       " * vel[i] = (x, y, z), inside the box [0, L]^3 with reflecting walls. */\n",
       "$T *pos, $T *vel, $T dt, $T L, int n",
       "    for (int i = 0; i < n; i++) {\n        for (int c = 0; c < 3; c++) {\n"
       "            $T *p = &pos[3 * i + c], *v = &vel[3 * i + c];\n            *p += dt * *v;\n"
       "            if (*p < 0) {\n                *p = -*p;\n                *v = -*v;\n            }\n"
       "            if (*p > L) {\n                *p = 2 * L - *p;\n                *v = -*v;\n            }\n"
       "        }\n    }\n",
       "9*n", "12*$S*n", "pos=n,3;vel=n,3", "pos=uni:0:1", "pos vel", "dt=0.01;L=1"),
    OP("euler-reflect-steps-2d", "f32 f64", STEPS, "step_particles",
       "/* `steps` explicit Euler steps in the box [0, L]^2 with reflecting walls. */\n",
       "$T *x, $T *y, $T *vx, $T *vy, $T dt, $T L, int n, int steps",
       "    for (int i = 0; i < n; i++) {\n        for (int k = 0; k < steps; k++) {\n"
       "            x[i] += dt * vx[i];\n            y[i] += dt * vy[i];\n"
       REFLECT("x[i]", "            ") REFLECT("y[i]", "            ")
       "        }\n    }\n",
       "6*n*steps", "8*$S*n", S2, BOX2, IO2, "dt=0.01;L=1"),
    OP("inelastic-walls-2d", "f32", P, "step_particles",
       "/* One Euler step in the box [0, L]^2 whose walls absorb energy: a particle\n"
       " * crossing a wall is mirrored back and the normal velocity reversed and\n"
       " * scaled by the restitution coefficient e. */\n",
       "$T *x, $T *y, $T *vx, $T *vy, $T dt, $T L, $T e, int n",
       "    for (int i = 0; i < n; i++) {\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        if (x[i] < 0 || x[i] > L) {\n            x[i] = x[i] < 0 ? -x[i] : 2 * L - x[i];\n"
       "            vx[i] = -e * vx[i];\n        }\n"
       "        if (y[i] < 0 || y[i] > L) {\n            y[i] = y[i] < 0 ? -y[i] : 2 * L - y[i];\n"
       "            vy[i] = -e * vy[i];\n        }\n    }\n",
       "8*n", "8*$S*n", S2, BOX2, IO2, "dt=0.01;L=1;e=0.8"),
    OP("verlet-harmonic-3d", "f32 f64", P, "verlet_step",
       "/* One velocity-Verlet step in the isotropic harmonic trap a(r) = -k r:\n"
       " * r' = r + v dt + a dt^2 / 2, v' = v + (a(r) + a(r')) dt / 2. */\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T k, $T dt, int n",
       "    $T h = dt / 2;\n    for (int i = 0; i < n; i++) {\n"
       "        $T ax = -k * x[i], ay = -k * y[i], az = -k * z[i];\n"
       "        x[i] += dt * (vx[i] + h * ax);\n        y[i] += dt * (vy[i] + h * ay);\n"
       "        z[i] += dt * (vz[i] + h * az);\n        vx[i] += h * (ax - k * x[i]);\n"
       "        vy[i] += h * (ay - k * y[i]);\n        vz[i] += h * (az - k * z[i]);\n    }\n",
       "24*n", "12*$S*n", S3, NULL, IO3, "k=4;dt=0.01"),
    OP("verlet-gravity-floor", "f32 f64", P, "verlet_step",
       "/* One velocity-Verlet step under uniform gravity -g along z (exact for a\n"
       " * constant force), then an elastic floor at z = 0. */\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T g, $T dt, int n",
       "    for (int i = 0; i < n; i++) {\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        z[i] += dt * vz[i] - g * dt * dt / 2;\n        vz[i] -= g * dt;\n"
       "        if (z[i] < 0) {\n            z[i] = -z[i];\n            vz[i] = -vz[i];\n        }\n    }\n",
       "12*n", "12*$S*n", S3, BOX3, IO3, "g=9.81;dt=0.01"),
    OP("gravity-damping-2d", "f32 f64", P, "step_particles",
       "/* Gravity with linear damping, semi-implicit Euler: v = v (1 - c dt) +\n"
       " * (0, -g) dt, then x += v dt; a bouncing floor at y = 0 reverses vy,\n"
       " * scaled by the restitution e. */\n",
       "$T *x, $T *y, $T *vx, $T *vy, $T g, $T c, $T e, $T dt, int n",
       "    $T keep = 1 - c * dt;\n    for (int i = 0; i < n; i++) {\n        vx[i] *= keep;\n"
       "        vy[i] = vy[i] * keep - g * dt;\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        if (y[i] < 0) {\n            y[i] = -y[i];\n            vy[i] = -e * vy[i];\n        }\n    }\n",
       "10*n", "8*$S*n", S2, BOX2, IO2, "g=9.81;c=0.5;e=0.7;dt=0.01"),
    OP("gravity-damping-3d", "f32 f64", P, "step_particles",
       "/* Gravity along -z with linear damping (semi-implicit Euler) and an\n"
       " * inelastic floor at z = 0 (restitution e). */\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T g, $T c, $T e, $T dt, int n",
       "    $T keep = 1 - c * dt;\n    for (int i = 0; i < n; i++) {\n        vx[i] *= keep;\n        vy[i] *= keep;\n"
       "        vz[i] = vz[i] * keep - g * dt;\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        z[i] += dt * vz[i];\n        if (z[i] < 0) {\n            z[i] = -z[i];\n"
       "            vz[i] = -e * vz[i];\n        }\n    }\n",
       "14*n", "12*$S*n", S3, BOX3, IO3, "g=9.81;c=0.5;e=0.7;dt=0.01"),
    OP("damping-exp", "f32 f64", P, "step_particles",
       "#include <math.h>\n\n/* Exact exponential velocity damping over a step, v *= exp(-gamma dt),\n"
       " * followed by the drift r += v dt. */\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T gamma, $T dt, int n",
       "    $T f = exp$F(-gamma * dt);\n    for (int i = 0; i < n; i++) {\n"
       "        vx[i] *= f;\n        vy[i] *= f;\n        vz[i] *= f;\n"
       "        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n        z[i] += dt * vz[i];\n    }\n",
       "9*n", "12*$S*n", S3, NULL, IO3, "gamma=2;dt=0.05"),
    OP("drag-quadratic", "f32 f64", P, "step_particles",
       "#include <math.h>\n\n/* Quadratic air drag and gravity, semi-implicit Euler:\n"
       " * a = -c |v| v - (0, 0, g), v += a dt, r += v dt. */\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T c, $T g, $T dt, int n",
       "    for (int i = 0; i < n; i++) {\n"
       "        $T speed = sqrt$F(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);\n"
       "        vx[i] -= dt * c * speed * vx[i];\n        vy[i] -= dt * c * speed * vy[i];\n"
       "        vz[i] -= dt * (c * speed * vz[i] + g);\n"
       "        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n        z[i] += dt * vz[i];\n    }\n",
       "22*n", "12*$S*n", S3, NULL, IO3, "c=0.3;g=9.81;dt=0.01"),
    OP("periodic-2d", "f32", P, "step_particles",
       "#include <math.h>\n\n/* Drift in a periodic unit square: r += v dt, wrapped back into [0, 1). */\n",
       "$T *x, $T *y, const $T *vx, const $T *vy, $T dt, int n",
       "    for (int i = 0; i < n; i++) {\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        x[i] -= floor$F(x[i]);\n        y[i] -= floor$F(y[i]);\n    }\n",
       "6*n", "6*$S*n", S2, BOX2, "x y", "dt=0.05"),
    OP("periodic-3d", "f64", P, "step_particles",
       "#include <math.h>\n\n/* Drift in a periodic box of side L: r += v dt, each coordinate wrapped\n"
       " * back into [0, L). */\n",
       "$T *x, $T *y, $T *z, const $T *vx, const $T *vy, const $T *vz, $T dt, $T L, int n",
       "    for (int i = 0; i < n; i++) {\n        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n"
       "        z[i] += dt * vz[i];\n        x[i] -= L * floor(x[i] / L);\n"
       "        y[i] -= L * floor(y[i] / L);\n        z[i] -= L * floor(z[i] / L);\n    }\n",
       "15*n", "9*$S*n", S3, BOX3, "x y z", "dt=0.05;L=1"),
    OP("boris-push", "f32 f64", P, "boris_push",
       "/* Boris push of charged particles (charge-to-mass ratio qm) in uniform\n"
       " * fields E and B: half electric kick, magnetic rotation, half kick, then\n"
       " * the drift r += v dt. */\n",
       "$T *x, $T *y, $T *z, $T *vx, $T *vy, $T *vz, $T qm, $T dt, $T Ex, $T Ey, $T Ez, $T Bx, $T By, $T Bz, int n",
       "    $T h = qm * dt / 2;\n    $T tx = h * Bx, ty = h * By, tz = h * Bz;\n"
       "    $T f = 2 / (1 + tx * tx + ty * ty + tz * tz);\n    $T sx = f * tx, sy = f * ty, sz = f * tz;\n"
       "    for (int i = 0; i < n; i++) {\n"
       "        $T ux = vx[i] + h * Ex, uy = vy[i] + h * Ey, uz = vz[i] + h * Ez;\n"
       "        $T wx = ux + (uy * tz - uz * ty);\n        $T wy = uy + (uz * tx - ux * tz);\n"
       "        $T wz = uz + (ux * ty - uy * tx);\n"
       "        ux += wy * sz - wz * sy;\n        uy += wz * sx - wx * sz;\n        uz += wx * sy - wy * sx;\n"
       "        vx[i] = ux + h * Ex;\n        vy[i] = uy + h * Ey;\n        vz[i] = uz + h * Ez;\n"
       "        x[i] += dt * vx[i];\n        y[i] += dt * vy[i];\n        z[i] += dt * vz[i];\n    }\n",
       "40*n", "12*$S*n", S3, NULL, IO3, "qm=1.5;dt=0.05;Ex=0.2;Ey=-0.1;Ez=0.3;Bx=0.5;By=1.2;Bz=2"),
    OP("deposit-ngp-1d", "f32 f64", DEP1, "deposit",
       "/* Nearest-grid-point charge deposition: particle p at x in [0, 1) adds its\n"
       " * charge to cell floor(x * ng) of a 1D grid. */\n",
       "const $T *x, const $T *q, $T *rho, int n, int ng",
       "    for (int i = 0; i < ng; i++)\n        rho[i] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        int i = (int)(x[p] * ng);\n        if (i > ng - 1)\n            i = ng - 1;\n"
       "        rho[i] += q[p];\n    }\n",
       "2*n", "2*$S*n+$S*ng", "x=n;q=n;rho=ng", "x=uni:0:1;q=uni:0.5:1.5", .tol = {1e-3, 1e-4}),
    OP("deposit-cic-1d-periodic", "f32 f64", DEP1, "deposit",
       "/* Cloud-in-cell deposition on a periodic 1D grid of ng nodes spaced 1/ng:\n"
       " * a particle at g = x * ng splits its charge linearly between nodes\n"
       " * floor(g) and floor(g) + 1 (wrapping to 0). */\n",
       "const $T *x, const $T *q, $T *rho, int n, int ng",
       "    for (int i = 0; i < ng; i++)\n        rho[i] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        $T g = x[p] * ng;\n        int i = (int)g;\n        if (i > ng - 1)\n            i = ng - 1;\n"
       "        $T w = g - i;\n        rho[i] += q[p] * (1 - w);\n        rho[(i + 1) % ng] += q[p] * w;\n    }\n",
       "6*n", "2*$S*n+$S*ng", "x=n;q=n;rho=ng", "x=uni:0:1;q=uni:0.5:1.5", .tol = {1e-3, 1e-4}),
    OP("deposit-cic-1d-clamped", "f32", DEP1, "deposit",
       "/* Cloud-in-cell deposition on a bounded 1D grid of ng nodes: the share\n"
       " * beyond the last node stays on the last node. */\n",
       "const $T *x, const $T *q, $T *rho, int n, int ng",
       "    for (int i = 0; i < ng; i++)\n        rho[i] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        $T g = x[p] * (ng - 1);\n        int i = (int)g;\n        if (i > ng - 1)\n            i = ng - 1;\n"
       "        int j = i + 1 < ng ? i + 1 : ng - 1;\n        $T w = g - i;\n"
       "        rho[i] += q[p] * (1 - w);\n        rho[j] += q[p] * w;\n    }\n",
       "6*n", "2*$S*n+$S*ng", "x=n;q=n;rho=ng", "x=uni:0:1;q=uni:0.5:1.5", .tol = {1e-3, 1e-4}),
    OP("deposit-tsc-1d", "f32", DEP1, "deposit",
       "/* Triangular-shaped-cloud deposition on a periodic 1D grid: with c the\n"
       " * node nearest to g = x * ng and d = g - c, the weights of nodes c-1, c,\n"
       " * c+1 are (1/2 - d)^2 / 2, 3/4 - d^2 and (1/2 + d)^2 / 2. */\n",
       "const $T *x, const $T *q, $T *rho, int n, int ng",
       "    for (int i = 0; i < ng; i++)\n        rho[i] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        $T g = x[p] * ng;\n        int c = (int)(g + 0.5$F);\n        $T d = g - c;\n"
       "        int left = (c - 1 + ng) % ng, mid = c % ng, right = (c + 1) % ng;\n"
       "        rho[left] += q[p] * 0.5$F * (0.5$F - d) * (0.5$F - d);\n"
       "        rho[mid] += q[p] * (0.75$F - d * d);\n"
       "        rho[right] += q[p] * 0.5$F * (0.5$F + d) * (0.5$F + d);\n    }\n",
       "16*n", "2*$S*n+$S*ng", "x=n;q=n;rho=ng", "x=uni:0:1;q=uni:0.5:1.5", .tol = {1e-3, 1e-4}),
    OP("deposit-ngp-2d", "f32", DEP2, "deposit",
       "/* Nearest-grid-point deposition on an ny x nx grid over the unit square\n"
       " * (row-major, y rows): cell (floor(y ny), floor(x nx)) gets the charge. */\n",
       "const $T *x, const $T *y, const $T *q, $T *rho, int n, int nx, int ny",
       "    for (int k = 0; k < nx * ny; k++)\n        rho[k] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        int i = (int)(x[p] * nx), j = (int)(y[p] * ny);\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        rho[j * nx + i] += q[p];\n    }\n",
       "3*n", "3*$S*n+$S*nx*ny", "x=n;y=n;q=n;rho=ny,nx", "x=uni:0:1;y=uni:0:1;q=uni:0.5:1.5",
       .tol = {1e-3, 1e-4}),
    OP("deposit-cic-2d", "f32 f64", DEP2, "deposit",
       "/* Bilinear (cloud-in-cell) charge deposition on a periodic ny x nx grid\n"
       " * over the unit square (row-major): each particle spreads its charge\n"
       " * over the four surrounding nodes. */\n",
       "const $T *x, const $T *y, const $T *q, $T *rho, int n, int nx, int ny",
       "    for (int k = 0; k < nx * ny; k++)\n        rho[k] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        $T gx = x[p] * nx, gy = y[p] * ny;\n        int i = (int)gx, j = (int)gy;\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        $T wx = gx - i, wy = gy - j;\n        int i1 = (i + 1) % nx, j1 = (j + 1) % ny;\n"
       "        rho[j * nx + i] += q[p] * (1 - wx) * (1 - wy);\n"
       "        rho[j * nx + i1] += q[p] * wx * (1 - wy);\n"
       "        rho[j1 * nx + i] += q[p] * (1 - wx) * wy;\n"
       "        rho[j1 * nx + i1] += q[p] * wx * wy;\n    }\n",
       "20*n", "3*$S*n+$S*nx*ny", "x=n;y=n;q=n;rho=ny,nx", "x=uni:0:1;y=uni:0:1;q=uni:0.5:1.5",
       .tol = {1e-3, 1e-4}),
    OP("deposit-cic-3d", "f32", DEP3, "deposit",
       "/* Trilinear (cloud-in-cell) charge deposition on a periodic nz x ny x nx\n"
       " * grid over the unit cube: each particle spreads its charge over the\n"
       " * eight surrounding nodes. */\n",
       "const $T *x, const $T *y, const $T *z, const $T *q, $T *rho, int n, int nx, int ny, int nz",
       "    for (int k = 0; k < nx * ny * nz; k++)\n        rho[k] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        $T g[3] = {x[p] * nx, y[p] * ny, z[p] * nz};\n        int dims[3] = {nx, ny, nz}, lo[3], hi[3];\n"
       "        $T w[3];\n        for (int c = 0; c < 3; c++) {\n            lo[c] = (int)g[c];\n"
       "            if (lo[c] > dims[c] - 1)\n                lo[c] = dims[c] - 1;\n"
       "            hi[c] = (lo[c] + 1) % dims[c];\n            w[c] = g[c] - lo[c];\n        }\n"
       "        for (int corner = 0; corner < 8; corner++) {\n"
       "            int bx = corner & 1, by = (corner >> 1) & 1, bz = corner >> 2;\n"
       "            $T weight = (bx ? w[0] : 1 - w[0]) * (by ? w[1] : 1 - w[1]) * (bz ? w[2] : 1 - w[2]);\n"
       "            int i = bx ? hi[0] : lo[0], j = by ? hi[1] : lo[1], k = bz ? hi[2] : lo[2];\n"
       "            rho[(k * ny + j) * nx + i] += q[p] * weight;\n        }\n    }\n",
       "40*n", "4*$S*n+$S*nx*ny*nz", "x=n;y=n;z=n;q=n;rho=nz,ny,nx",
       "x=uni:0:1;y=uni:0:1;z=uni:0:1;q=uni:0.5:1.5", .tol = {1e-3, 1e-4}),
    OP("deposit-current-2d", "f32", DEP2, "deposit_current",
       "/* Current deposition for a 2D PIC step: bilinear weights on a periodic\n"
       " * ny x nx grid over the unit square; jx and jy accumulate q vx and q vy. */\n",
       "const $T *x, const $T *y, const $T *vx, const $T *vy, const $T *q, $T *jx, $T *jy, int n, int nx, int ny",
       "    for (int k = 0; k < nx * ny; k++) {\n        jx[k] = 0;\n        jy[k] = 0;\n    }\n"
       "    for (int p = 0; p < n; p++) {\n"
       "        $T gx = x[p] * nx, gy = y[p] * ny;\n        int i = (int)gx, j = (int)gy;\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        $T wx = gx - i, wy = gy - j;\n        int i1 = (i + 1) % nx, j1 = (j + 1) % ny;\n"
       "        int cell[4] = {j * nx + i, j * nx + i1, j1 * nx + i, j1 * nx + i1};\n"
       "        $T w[4] = {(1 - wx) * (1 - wy), wx * (1 - wy), (1 - wx) * wy, wx * wy};\n"
       "        for (int c = 0; c < 4; c++) {\n            jx[cell[c]] += q[p] * vx[p] * w[c];\n"
       "            jy[cell[c]] += q[p] * vy[p] * w[c];\n        }\n    }\n",
       "30*n", "5*$S*n+2*$S*nx*ny", "x=n;y=n;vx=n;vy=n;q=n;jx=ny,nx;jy=ny,nx",
       "x=uni:0:1;y=uni:0:1;q=uni:0.5:1.5", .tol = {1e-3, 1e-4}),
    OP("gather-cic-1d", "f32", DEP1, "gather",
       "/* Interpolates a periodic 1D grid field (ng nodes over [0, 1)) to the\n * particles, linearly. */\n",
       "const $T *field, const $T *x, $T *out, int n, int ng",
       "    for (int p = 0; p < n; p++) {\n        $T g = x[p] * ng;\n        int i = (int)g;\n"
       "        if (i > ng - 1)\n            i = ng - 1;\n        $T w = g - i;\n"
       "        out[p] = (1 - w) * field[i] + w * field[(i + 1) % ng];\n    }\n",
       "5*n", "2*$S*n+$S*ng", "field=ng;x=n;out=n", "x=uni:0:1"),
    OP("gather-cic-2d", "f32 f64", DEP2, "gather",
       "/* Bilinear interpolation of a periodic ny x nx grid field (unit square,\n * row-major) to the particles. */\n",
       "const $T *field, const $T *x, const $T *y, $T *out, int n, int nx, int ny",
       "    for (int p = 0; p < n; p++) {\n        $T gx = x[p] * nx, gy = y[p] * ny;\n"
       "        int i = (int)gx, j = (int)gy;\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        $T wx = gx - i, wy = gy - j;\n        int i1 = (i + 1) % nx, j1 = (j + 1) % ny;\n"
       "        out[p] = (1 - wy) * ((1 - wx) * field[j * nx + i] + wx * field[j * nx + i1])\n"
       "                 + wy * ((1 - wx) * field[j1 * nx + i] + wx * field[j1 * nx + i1]);\n    }\n",
       "14*n", "3*$S*n+$S*nx*ny", "field=ny,nx;x=n;y=n;out=n", "x=uni:0:1;y=uni:0:1"),
    OP("gather-push-2d", "f32", DEP2, "push",
       "#include <math.h>\n\n/* A 2D particle-in-cell push: the electric field (ex, ey on a periodic\n"
       " * ny x nx grid over the unit square) is interpolated bilinearly to each\n"
       " * particle, kicks its velocity by qm E dt, and the particle drifts and\n"
       " * wraps back into the unit square. */\n"
       "static $T interp(const $T *f, int nx, int i, int j, int i1, int j1, $T wx, $T wy)\n{\n"
       "    return (1 - wy) * ((1 - wx) * f[j * nx + i] + wx * f[j * nx + i1])\n"
       "           + wy * ((1 - wx) * f[j1 * nx + i] + wx * f[j1 * nx + i1]);\n}\n\n",
       "const $T *ex, const $T *ey, $T *x, $T *y, $T *vx, $T *vy, $T qm, $T dt, int n, int nx, int ny",
       "    for (int p = 0; p < n; p++) {\n        $T gx = x[p] * nx, gy = y[p] * ny;\n"
       "        int i = (int)gx, j = (int)gy;\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        $T wx = gx - i, wy = gy - j;\n        int i1 = (i + 1) % nx, j1 = (j + 1) % ny;\n"
       "        vx[p] += qm * dt * interp(ex, nx, i, j, i1, j1, wx, wy);\n"
       "        vy[p] += qm * dt * interp(ey, nx, i, j, i1, j1, wx, wy);\n"
       "        x[p] += dt * vx[p];\n        y[p] += dt * vy[p];\n"
       "        x[p] -= floor$F(x[p]);\n        y[p] -= floor$F(y[p]);\n    }\n",
       "40*n", "8*$S*n+2*$S*nx*ny", "ex=ny,nx;ey=ny,nx;x=n;y=n;vx=n;vy=n", "x=uni:0:1;y=uni:0:1", "x y vx vy",
       "qm=-1;dt=0.02", .tol = {1e-4, 1e-4}),
    OP("sph-density-poly6", "f32 f64", SETS, "sph_density",
       PI_DEF "/* SPH density with the poly6 kernel, over all pairs within each set of S\n"
       " * particles (nsets sets stored one after another):\n"
       " * rho_i = sum_j m_j 315 / (64 pi h^9) (h^2 - r_ij^2)^3 for r_ij < h, self included. */\n",
       "const $T *x, const $T *y, const $T *z, const $T *m, $T *rho, $T h, int nsets, int S",
       "    $T h2 = h * h;\n    $T coef = ($T)(315 / (64 * PI)) / (h2 * h2 * h2 * h2 * h);\n"
       SETLOOP_HEAD "            $T sum = 0;\n            for (int j = base; j < base + S; j++) {\n"
       "                $T dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];\n"
       "                $T r2 = dx * dx + dy * dy + dz * dz;\n                if (r2 < h2) {\n"
       "                    $T d = h2 - r2;\n                    sum += m[j] * d * d * d;\n                }\n"
       "            }\n            rho[i] = coef * sum;\n        }\n    }\n",
       "14*nsets*S*S", "5*$S*nsets*S", "x=nsets*S;y=nsets*S;z=nsets*S;m=nsets*S;rho=nsets*S",
       "x=uni:0:1;y=uni:0:1;z=uni:0:1;m=uni:0.5:1.5", NULL, "h=0.35", .tol = {1e-4, 1e-4}),
    OP("sph-density-cubic", "f32 f64", SETS, "sph_density",
       "#include <math.h>\n\n" PI_DEF
       "/* SPH density with the cubic B-spline kernel (support 2h) over all pairs\n"
       " * within each set of S particles: with q = r / h and sigma = 1 / (pi h^3),\n"
       " * W = sigma (1 - 3/2 q^2 + 3/4 q^3) for q < 1, sigma (2 - q)^3 / 4 for q < 2. */\n"
       "static $T kernel($T r, $T h)\n{\n    $T q = r / h, sigma = ($T)(1 / PI) / (h * h * h);\n"
       "    if (q < 1)\n        return sigma * (1 - 1.5$F * q * q + 0.75$F * q * q * q);\n"
       "    if (q < 2)\n        return sigma * 0.25$F * (2 - q) * (2 - q) * (2 - q);\n    return 0;\n}\n\n",
       "const $T *x, const $T *y, const $T *z, const $T *m, $T *rho, $T h, int nsets, int S",
       SETLOOP_HEAD "            $T sum = 0;\n            for (int j = base; j < base + S; j++) {\n"
       "                $T dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];\n"
       "                sum += m[j] * kernel(sqrt$F(dx * dx + dy * dy + dz * dz), h);\n"
       "            }\n            rho[i] = sum;\n        }\n    }\n",
       "20*nsets*S*S", "5*$S*nsets*S", "x=nsets*S;y=nsets*S;z=nsets*S;m=nsets*S;rho=nsets*S",
       "x=uni:0:1;y=uni:0:1;z=uni:0:1;m=uni:0.5:1.5", NULL, "h=0.2", .tol = {1e-4, 1e-4}),
    OP("sph-density-poly6-2d", "f32", SETS, "sph_density",
       PI_DEF "/* 2D SPH density with the poly6 kernel over all pairs within each set:\n"
       " * rho_i = sum_j m_j 4 / (pi h^8) (h^2 - r_ij^2)^3 for r_ij < h. */\n",
       "const $T *x, const $T *y, const $T *m, $T *rho, $T h, int nsets, int S",
       "    $T h2 = h * h;\n    $T coef = ($T)(4 / PI) / (h2 * h2 * h2 * h2);\n"
       SETLOOP_HEAD "            $T sum = 0;\n            for (int j = base; j < base + S; j++) {\n"
       "                $T dx = x[j] - x[i], dy = y[j] - y[i];\n"
       "                $T r2 = dx * dx + dy * dy;\n                if (r2 < h2) {\n"
       "                    $T d = h2 - r2;\n                    sum += m[j] * d * d * d;\n                }\n"
       "            }\n            rho[i] = coef * sum;\n        }\n    }\n",
       "12*nsets*S*S", "4*$S*nsets*S", "x=nsets*S;y=nsets*S;m=nsets*S;rho=nsets*S",
       "x=uni:0:1;y=uni:0:1;m=uni:0.5:1.5", NULL, "h=0.3", .tol = {1e-4, 1e-4}),
    OP("sph-density-pressure", "f32", SETS, "sph_state",
       PI_DEF "/* SPH density (poly6 kernel, all pairs within each set of S particles)\n"
       " * and pressure from the linear equation of state p = k (rho - rho0). */\n",
       "const $T *x, const $T *y, const $T *z, const $T *m, $T *rho, $T *pressure, $T h, $T k, $T rho0, int nsets, int S",
       "    $T h2 = h * h;\n    $T coef = ($T)(315 / (64 * PI)) / (h2 * h2 * h2 * h2 * h);\n"
       SETLOOP_HEAD "            $T sum = 0;\n            for (int j = base; j < base + S; j++) {\n"
       "                $T dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];\n"
       "                $T r2 = dx * dx + dy * dy + dz * dz;\n                if (r2 < h2) {\n"
       "                    $T d = h2 - r2;\n                    sum += m[j] * d * d * d;\n                }\n"
       "            }\n            rho[i] = coef * sum;\n            pressure[i] = k * (rho[i] - rho0);\n"
       "        }\n    }\n",
       "14*nsets*S*S", "6*$S*nsets*S", "x=nsets*S;y=nsets*S;z=nsets*S;m=nsets*S;rho=nsets*S;pressure=nsets*S",
       "x=uni:0:1;y=uni:0:1;z=uni:0:1;m=uni:0.5:1.5", NULL, "h=0.35;k=2;rho0=40", .tol = {1e-3, 1e-4}),
    OP("sph-density-variable-h", "f64", SETS, "sph_density",
       PI_DEF "/* SPH density with per-particle smoothing lengths: each pair uses the\n"
       " * poly6 kernel with the mean h_ij = (h_i + h_j) / 2, over all pairs within\n * each set of S particles. */\n",
       "const $T *x, const $T *y, const $T *z, const $T *m, const $T *h, $T *rho, int nsets, int S",
       SETLOOP_HEAD "            $T sum = 0;\n            for (int j = base; j < base + S; j++) {\n"
       "                $T dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];\n"
       "                $T r2 = dx * dx + dy * dy + dz * dz;\n"
       "                $T hij = (h[i] + h[j]) / 2, h2 = hij * hij;\n                if (r2 < h2) {\n"
       "                    $T d = h2 - r2;\n"
       "                    sum += m[j] * 315 / (64 * PI) * d * d * d / (h2 * h2 * h2 * h2 * hij);\n"
       "                }\n            }\n            rho[i] = sum;\n        }\n    }\n",
       "20*nsets*S*S", "6*$S*nsets*S", "x=nsets*S;y=nsets*S;z=nsets*S;m=nsets*S;h=nsets*S;rho=nsets*S",
       "x=uni:0:1;y=uni:0:1;z=uni:0:1;m=uni:0.5:1.5;h=uni:0.2:0.4"),
    OP("lj-forces", "f32 f64", SETS, "lj_forces",
       "#include <math.h>\n\n/* Softened Lennard-Jones forces (epsilon = sigma = 1) over all pairs within\n"
       " * each set of S particles, shifted so they vanish continuously at the\n"
       " * cutoff rc: with s = sqrt(r^2 + a2), F(s) = 24 (2 s^-13 - s^-7) and the\n"
       " * force on i is (F(s) - F(s_c)) (r_i - r_j) / s for r < rc. */\n"
       "static $T lj($T s)\n{\n    $T inv = 1 / s, i2 = inv * inv, i6 = i2 * i2 * i2;\n"
       "    return 24 * inv * i6 * (2 * i6 - 1);\n}\n\n",
       "const $T *x, const $T *y, const $T *z, $T *fx, $T *fy, $T *fz, $T rc, $T a2, int nsets, int S",
       "    $T rc2 = rc * rc, fc = lj(sqrt$F(rc2 + a2));\n"
       SETLOOP_HEAD "            $T sx = 0, sy = 0, sz = 0;\n            for (int j = base; j < base + S; j++) {\n"
       "                $T dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];\n"
       "                $T r2 = dx * dx + dy * dy + dz * dz;\n"
       "                if (j == i || r2 >= rc2)\n                    continue;\n"
       "                $T dist = sqrt$F(r2 + a2);\n                $T f = (lj(dist) - fc) / dist;\n"
       "                sx += f * dx;\n                sy += f * dy;\n                sz += f * dz;\n            }\n"
       "            fx[i] = sx;\n            fy[i] = sy;\n            fz[i] = sz;\n        }\n    }\n",
       "30*nsets*S*S", "6*$S*nsets*S", "x=nsets*S;y=nsets*S;z=nsets*S;fx=nsets*S;fy=nsets*S;fz=nsets*S",
       "x=uni:0:4;y=uni:0:4;z=uni:0:4", NULL, "rc=2.5;a2=1", .tol = {1e-3, 1e-3}),
    OP("set-energy-momentum", "f32 f64", SETS, "set_moments",
       "/* Per set of S particles: kinetic energy sum m v^2 / 2 and total momentum\n"
       " * sum m v (mom[s] = (px, py, pz)). */\n",
       "const $T *vx, const $T *vy, const $T *vz, const $T *m, $T *ke, $T *mom, int nsets, int S",
       "    for (int s = 0; s < nsets; s++) {\n        $T e = 0, px = 0, py = 0, pz = 0;\n"
       "        for (int i = s * S; i < (s + 1) * S; i++) {\n"
       "            e += m[i] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);\n"
       "            px += m[i] * vx[i];\n            py += m[i] * vy[i];\n            pz += m[i] * vz[i];\n        }\n"
       "        ke[s] = e / 2;\n        mom[3 * s] = px;\n        mom[3 * s + 1] = py;\n        mom[3 * s + 2] = pz;\n    }\n",
       "12*nsets*S", "4*$S*nsets*S+4*$S*nsets", "vx=nsets*S;vy=nsets*S;vz=nsets*S;m=nsets*S;ke=nsets;mom=nsets,3",
       "m=uni:0.5:1.5", NULL, NULL, .tol = {1e-4, 1e-4}),
    OP("bin-2d", "f32 f64", DEP2, "bin_particles",
       "/* Bins particles of the unit square into an ny x nx grid of cells:\n"
       " * cell[p] = row * nx + column, and counts[c] the particles in cell c. */\n",
       "const $T *x, const $T *y, int *cell, int *counts, int n, int nx, int ny",
       "    for (int c = 0; c < nx * ny; c++)\n        counts[c] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        int i = (int)(x[p] * nx), j = (int)(y[p] * ny);\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        cell[p] = j * nx + i;\n        counts[cell[p]]++;\n    }\n",
       "5*n", "2*$S*n+4*n+4*nx*ny", "x=n;y=n;cell=n;counts=ny,nx", "x=uni:0:1;y=uni:0:1"),
    OP("bin-3d", "f32", DEP3, "bin_particles",
       "/* Bins particles of the unit cube into an nz x ny x nx grid of cells:\n"
       " * cell[p] = (k * ny + j) * nx + i, and counts[c] the particles in cell c. */\n",
       "const $T *x, const $T *y, const $T *z, int *cell, int *counts, int n, int nx, int ny, int nz",
       "    for (int c = 0; c < nx * ny * nz; c++)\n        counts[c] = 0;\n    for (int p = 0; p < n; p++) {\n"
       "        int i = (int)(x[p] * nx), j = (int)(y[p] * ny), k = (int)(z[p] * nz);\n"
       "        if (i > nx - 1)\n            i = nx - 1;\n        if (j > ny - 1)\n            j = ny - 1;\n"
       "        if (k > nz - 1)\n            k = nz - 1;\n"
       "        cell[p] = (k * ny + j) * nx + i;\n        counts[cell[p]]++;\n    }\n",
       "8*n", "3*$S*n+4*n+4*nx*ny*nz", "x=n;y=n;z=n;cell=n;counts=nz,ny,nx", BOX3),
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* ---- the pair ----
 *
 * The kernels are the C bodies themselves, run by one thread per particle:
 * the particle loop's header becomes the thread's index, the lines before
 * it (constants such as h = dt / 2) stay as they are, helpers become
 * __device__ functions, and the C parameter list is the kernel's.  Grid
 * deposits and cell counts zero the grid in a first launch and accumulate
 * with atomicAdd; pairwise set programs give a thread each particle of a
 * set; per-set moments give a warp each set. */

/* Appends text with every line's first `cut` spaces removed. */
static void put_dedent(StrBuf *k, const char *text, size_t len, int cut)
{
    const char *q = text, *end = text + len;
    while (q < end) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        const char *stop = nl ? nl + 1 : end;
        for (int c = 0; c < cut && q < stop && *q == ' '; c++)
            q++;
        sb_append_n(k, q, (size_t)(stop - q));
        q = stop;
    }
}

/* Appends text, each line "    NAME[...] += v;" or "    NAME[...]++;"
 * becoming an atomicAdd (grid cells that many particles share). */
static void put_atomic(StrBuf *k, const char *text)
{
    for (const char *q = text; *q;) {
        const char *nl = strchr(q, '\n');
        size_t len = nl ? (size_t)(nl - q + 1) : strlen(q);
        const char *ind = q;
        while (*ind == ' ')
            ind++;
        const char *br = strchr(ind, '[');
        const char *pl = strstr(ind, "] += "), *pp = strstr(ind, "]++;");
        if (br && br < q + len && ((pl && pl < q + len) || (pp && pp < q + len))) {
            const char *close = pl && pl < q + len ? pl : pp;
            sb_append_n(k, q, (size_t)(ind - q));
            sb_append(k, "atomicAdd(&");
            sb_append_n(k, ind, (size_t)(close - ind + 1));
            if (close == pl)
                sb_printf(k, ", %.*s);\n", (int)(q + len - (pl + 5) - 2), pl + 5);
            else
                sb_append(k, ", 1);\n");
        } else {
            sb_append_n(k, q, len);
        }
        q += len;
    }
}

/* The C parameter list `sig` with every pointer restrict-qualified. */
static void put_params(StrBuf *k, const char *sig)
{
    for (const char *c = sig; *c; c++) {
        if (c[0] == ' ' && c[1] == '*') {
            sb_append(k, " *__restrict__ ");
            c++;
        } else {
            sb_putc(k, *c);
        }
    }
}

/* The names of the C parameter list `sig`, comma-separated. */
static void put_names(StrBuf *k, const char *sig)
{
    for (const char *q = sig; *q;) {
        const char *comma = strchr(q, ',');
        const char *end = comma ? comma : q + strlen(q), *nm = end;
        while (nm > q && (nm[-1] == '_' || (nm[-1] >= 'a' && nm[-1] <= 'z') || (nm[-1] >= 'A' && nm[-1] <= 'Z') ||
                          (nm[-1] >= '0' && nm[-1] <= '9')))
            nm--;
        if (q != sig)
            sb_putc(k, ',');
        sb_append_n(k, nm, (size_t)(end - nm));
        q = comma ? comma + 1 : end;
    }
}

/* `extern "C" __global__ void entry(<sig, restrict>)`, wrapped, and "{\n". */
static void put_head(StrBuf *k, const char *entry, const char *sig)
{
    StrBuf line = STRBUF_INIT;
    sb_printf(&line, "extern \"C\" __global__ void %s(", entry);
    put_params(&line, sig);
    sb_append(&line, ")");
    tmpl_put_wrapped(k, line.data);
    sb_append(k, "\n{\n");
    sb_release(&line);
}

/* The opening text (comment, defines, helpers; types substituted) for
 * CUDA: no <math.h>, and helpers become __device__ functions.  `how` (the
 * mapping, a sentence) ends the comment when nothing follows it, else
 * comes as its own comment. */
static void put_pre(StrBuf *k, const char *pre, const char *how)
{
    const char *inc = "#include <math.h>\n\n";
    if (!strncmp(pre, inc, strlen(inc)))
        pre += strlen(inc);
    for (const char *q = pre; *q;) {
        if ((q == pre || q[-1] == '\n') && !strncmp(q, "static ", 7)) {
            sb_append(k, "static __device__ ");
            q += 7;
        } else {
            sb_putc(k, *q++);
        }
    }
    size_t len = k->len;
    if (len > 4 && !strcmp(k->data + len - 4, " */\n")) {
        k->len -= 4;
        k->data[k->len] = '\0';
        sb_printf(k, "\n * %s */\n", how);
    } else {
        sb_printf(k, "/* %s */\n", how);
    }
}

/* Per-set kinetic energy and momentum: one warp per set, shuffle sums. */
static const char WARP_SUM[] =
    "/* The sum over the 32 lanes of a warp (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ $T warp_sum($T v)\n{\n"
    "    for (int o = 16; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
    "    return v;\n}\n\n";
static const char SET_MOMENTS[] =
    "@head"
    "    const long long s = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
    "    const int lane = threadIdx.x % 32;\n"
    "    if (s >= nsets)\n        return; /* the whole warp: sets are warp-uniform */\n"
    "    $T e = 0, px = 0, py = 0, pz = 0;\n"
    "    for (long long i = s * S + lane; i < (s + 1) * S; i += 32) {\n"
    "        e += m[i] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);\n"
    "        px += m[i] * vx[i];\n        py += m[i] * vy[i];\n        pz += m[i] * vz[i];\n    }\n"
    "    e = warp_sum(e);\n    px = warp_sum(px);\n    py = warp_sum(py);\n    pz = warp_sum(pz);\n"
    "    if (lane == 0) {\n"
    "        ke[s] = e / 2;\n        mom[3 * s] = px;\n        mom[3 * s + 1] = py;\n        mom[3 * s + 2] = pz;\n"
    "    }\n";

static void emit_cuda(GenProgram *p, const Op *op, const Sub *t, const char *sig)
{
    StrBuf *k = gen_cuda_src(p);
    StrBuf body = STRBUF_INIT, names = STRBUF_INIT, pre = STRBUF_INIT;
    ops_put(&body, t, op->body);
    ops_put(&pre, t, op->pre);
    put_names(&names, sig);
    const char *b = body.data;
    if (op->kind == SETS && !strcmp(op->entry, "set_moments")) {
        ops_put(k, t, WARP_SUM);
        put_pre(k, pre.data, "One warp per set: its lanes stride through the set's particles.");
        StrBuf head = STRBUF_INIT, tmpl = STRBUF_INIT;
        put_head(&head, op->entry, sig);
        const char *at = strstr(SET_MOMENTS, "@head");
        sb_append_n(&tmpl, SET_MOMENTS, (size_t)(at - SET_MOMENTS));
        sb_append(&tmpl, head.data);
        sb_append(&tmpl, at + 5);
        ops_put(k, t, tmpl.data);
        sb_append(k, "}\n");
        gen_launch(p, op->entry, "(nsets+7)/8", "256", NULL, names.data);
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "warp-per-set, warp-shuffle reductions");
        sb_release(&head);
        sb_release(&tmpl);
    } else if (op->kind == SETS) {
        /* Pairwise within a set: the set loops become the thread's particle. */
        const char *loop = strstr(b, "    for (int s = 0; s < nsets; s++) {\n");
        const char *inner = strstr(loop, "        for (int i = base; i < base + S; i++) {\n");
        inner = strchr(inner, '\n') + 1;
        const char *tail = b + strlen(b) - strlen("        }\n    }\n");
        put_pre(k, pre.data, "One thread per particle i, summing over the particles of its set.");
        put_head(k, op->entry, sig);
        sb_append_n(k, b, (size_t)(loop - b));
        sb_append(k, "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= nsets * S)\n        return;\n"
                     "    const int base = i / S * S; /* the first particle of i's set */\n");
        put_dedent(k, inner, (size_t)(tail - inner), 8);
        sb_append(k, "}\n");
        gen_launch(p, op->entry, "(nsets*S+255)/256", "256", NULL, names.data);
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-particle-per-thread, pairs within its set");
    } else {
        const char *var = "i";
        const char *loop = strstr(b, "    for (int i = 0; i < n; i++) {\n");
        if (!loop) {
            loop = strstr(b, "    for (int p = 0; p < n; p++) {\n");
            var = "p";
        }
        const char *inner = strchr(loop, '\n') + 1;
        const char *tail = b + strlen(b) - strlen("    }\n");
        /* Deposits and binning zero their grids before the particle loop. */
        int scatter = loop > b && strstr(b, "] = 0;") && strstr(b, "] = 0;") < loop;
        if (scatter) {
            const char *ty = strstr(sig, "int *counts") ? "int" : t->T;
            sb_printf(k, "/* grid[c] = 0 for c < cells: one thread per cell. */\n"
                         "extern \"C\" __global__ void zero_grid(%s *__restrict__ grid, int cells)\n{\n"
                         "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (c < cells)\n        grid[c] = 0;\n}\n\n",
                      ty);
            /* "for (int i = 0; i < CELLS; i++)": the cell count. */
            const char *lt = strstr(b, " < ") + 3;
            char cells[32], grid[64], args[64];
            snprintf(cells, sizeof cells, "%.*s", (int)(strchr(lt, ';') - lt), lt);
            snprintf(grid, sizeof grid, "(%s+255)/256", cells);
            for (const char *q = b; q < loop; q++) {
                /* each "NAME[k] = 0;" zeroes the grid NAME */
                if (!strncmp(q, "] = 0;", 6)) {
                    const char *nm = q;
                    while (nm > b && nm[-1] != ' ')
                        nm--;
                    const char *br = memchr(nm, '[', (size_t)(q - nm));
                    snprintf(args, sizeof args, "%.*s,%s", (int)(br - nm), nm, cells);
                    gen_launch(p, "zero_grid", grid, "256", NULL, args);
                }
            }
        }
        put_pre(k, pre.data,
                !scatter ? "One thread per particle."
                : strstr(sig, "counts") ? "One thread per particle, counting with atomicAdd."
                                        : "One thread per particle, depositing with atomicAdd.");
        put_head(k, op->entry, sig);
        if (!scatter)
            sb_append_n(k, b, (size_t)(loop - b));
        sb_printf(k, "    const int %s = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (%s >= n)\n        return;\n",
                  var, var);
        StrBuf in = STRBUF_INIT;
        put_dedent(&in, inner, (size_t)(tail - inner), 4);
        if (scatter)
            put_atomic(k, in.data);
        else
            sb_append(k, in.data);
        sb_release(&in);
        sb_append(k, "}\n");
        gen_launch(p, op->entry, "(n+255)/256", "256", NULL, names.data);
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", scatter ? "zero the grid, then one-particle-per-thread atomicAdd (two launches)"
                                       : "one-particle-per-thread");
    }
    sb_release(&body);
    sb_release(&names);
    sb_release(&pre);
}

/* Emits one instance ("f32" or "key/payload") of op. */
static int emit(GenCtx *g, const Op *op, const char *inst)
{
    char kt[8] = "", vt[8] = "";
    const char *slash = strchr(inst, '/');
    snprintf(kt, sizeof kt, "%.*s", (int)(slash ? slash - inst : (long)strlen(inst)), inst);
    if (slash)
        snprintf(vt, sizeof vt, "%s", slash + 1);
    Sub t = {ops_ctype_of(kt), slash ? ops_ctype_of(vt) : "", !strcmp(kt, "f32") ? "f" : ""};
    char variant[96];
    snprintf(variant, sizeof variant, "%s-%s%s%s", op->tag, kt, slash ? "-" : "", vt);
    GenProgram *p = gen_begin(g, variant, op->entry);
    gen_describe(p, "%s: %s, %s%s%s", FAMILY_WHAT, op->tag, kt, slash ? "/" : "", vt);
    StrBuf sig = STRBUF_INIT;
    ops_put(&sig, &t, op->sig);
    ops_declare(p, sig.data, op->shapes, op->inout, op->scalars);
    configs(p, op->kind);
    ops_fills(p, op->fills);
    StrBuf bytes = STRBUF_INIT;
    for (const char *c = op->bytes; *c; c++) {
        if (c[0] == '$' && (c[1] == 'S' || c[1] == 'W')) {
            sb_append(&bytes, c[1] == 'S' ? ops_size_of(kt) : (slash ? ops_size_of(vt) : "0"));
            c++;
        } else {
            sb_putc(&bytes, *c);
        }
    }
    gen_cost(p, op->flops, bytes.data);
    /* A deposit scatters each particle's charge into grid nodes at random:
     * the C loop touches 1, 2 or 4 lines of the grid per particle in 1, 2
     * or 3 dimensions (neighbours along x share a line), a 64-byte line
     * each, where the problem's bytes count the grid once. */
    if (op->kind == DEP1 || op->kind == DEP2 || op->kind == DEP3)
        gen_reference_cost(p, NULL, op->kind == DEP1 ? "64*n" : op->kind == DEP2 ? "128*n" : "256*n");
    if (!strcmp(kt, "f64") && op->tol64[0] > 0)
        gen_tolerance(p, op->tol64[0], op->tol64[1]);
    else if (strcmp(kt, "f64") && op->tol[0] > 0)
        gen_tolerance(p, op->tol[0], op->tol[1]);
    StrBuf *s = gen_src(p);
    /* Fixed-width integer types need stdint.h. */
    if (strstr(sig.data, "_t ") && !strstr(op->pre, "<stdint.h>"))
        sb_append(s, "#include <stdint.h>\n");
    ops_put(s, &t, op->pre);
    ops_signature(s, op->entry, sig.data);
    ops_put(s, &t, op->body);
    sb_append(s, "}\n");
    emit_cuda(p, op, &t, sig.data);
    sb_release(&sig);
    sb_release(&bytes);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int k = 0; k < N_OPS; k++) {
        char types[64];
        snprintf(types, sizeof types, "%s", OPS[k].types);
        for (char *save = NULL, *it = strtok_r(types, " ", &save); it; it = strtok_r(NULL, " ", &save))
            if (emit(g, &OPS[k], it) != 0)
                return -1;
    }
    return 0;
}

const Family family_particles = {"particles", "particles", 54, generate};
