// index.d.ts — types for wasm/index.mjs (docs/wasm.md).

/** A shipped model, as listed by listModels(). */
export interface ModelInfo {
  name: string;
  description: string;
  nq: number;
  nv: number;
  nb: number;
  /** act[] slots (inputs of force elements). */
  nact: number;
  /**
   * 'generated': the model has its own generated module (and runs on the runtime engine too, on request);
   * 'runtime': shipped as text only, opened on the runtime engine (the tracked vehicles, until generated).
   */
  backend: 'generated' | 'runtime';
  /** The shipped models are Featherstone models (the XPBD scenes are in dist/scenes.json). */
  engine: 'featherstone';
  /**
   * 'trees': kinematic trees; 'loops': closed loops and force elements (models/loops/); 'tracks': tracked
   * vehicles (models/tracks/); 'rigs': test rigs (models/loops/*_rig.mech: the HMMWVs on shaker posts).
   */
  group: 'trees' | 'loops' | 'tracks' | 'rigs';
  /**
   * A terrain scene (models/tracks/scenes/): the shipped model whose generated module runs it, the same model
   * with another ground and description.
   */
  module?: string;
}

/** A body of the parsed model (core/model/model.h; rotations row-major). */
export interface BodyDescription {
  name: string;
  /** Index of the parent body, -1 for the base. */
  parent: number;
  joint: 'revolute' | 'prismatic' | 'floating' | 'fixed';
  /** Unit joint axis, body frame (1-DOF joints). */
  axis: [number, number, number];
  /** Tree translation: body origin in the parent frame at q = 0. */
  pos: [number, number, number];
  /** Tree rotation R (9, row-major): body axes in the parent frame at q = 0. */
  rot: number[];
  mass: number;
  com: [number, number, number];
  /** Rotational inertia about the CoM, body frame (9, row-major). */
  inertia: number[];
  fext: 0 | 1;
  qidx: number;
  vidx: number;
  nq: number;
  nv: number;
}

/** What Sim.describe() returns: the model exactly as the parser read it. */
export interface ModelDescription {
  name: string;
  description: string;
  gravity: [number, number, number];
  bodies: BodyDescription[];
  pois: { name: string; body: number; pos: [number, number, number] }[];
  shapes: {
    /**
     * 'mesh': the mesh `meshes[mesh]`, colliding through its convex hull unless visual when the model is opened with
     * its file (OpenOptions.files; docs/mech-format.md, "Meshes"); size unused.
     */
    type: 'box' | 'sphere' | 'cylinder' | 'capsule' | 'mesh';
    body: number;
    /** Type 'mesh' only: its index into `meshes`. */
    mesh?: number;
    size: [number, number, number];
    pos: [number, number, number];
    rot: number[];
    /** Alpha 0: let the page choose the colour. */
    rgba: [number, number, number, number];
    /** Drawn only: never an XPBD collider (docs/mech-format.md, "Colliders"). */
    visual: boolean;
  }[];
  /**
   * XPBD's static colliders (`static` lines), world poses, body -1: a 'plane' is the z = 0 plane of its frame
   * (size unused), a 'box' has full edge lengths.
   */
  statics: {
    type: 'plane' | 'box';
    body: -1;
    visual: false;
    size: [number, number, number];
    pos: [number, number, number];
    rot: number[];
    rgba: [number, number, number, number];
  }[];
  /**
   * Mesh assets (`mesh` lines): each file, relative to the model file's folder, and its placement (a file vertex
   * v is at scale ⊙ R(refquat)ᵀ (v − refpos) in the frame of a shape drawing it). The files are not in the model.
   */
  meshes: {
    name: string;
    file: string;
    scale: [number, number, number];
    refpos: [number, number, number];
    refquat: [number, number, number, number];
  }[];
  /** One per act[] slot, in slot order: the force element whose input it is. */
  inputs: InputDescription[];
  /** Track bands (`track` blocks), expanded into the bodies shoe0 .. shoe0 + nshoe - 1. */
  tracks: TrackDescription[];
  /** Tires (`tire` blocks) on their wheel bodies (docs/contact.md "Tires"). */
  tires: TireDescription[];
  /** The terrain of the `ground` block, null without one. */
  ground: GroundDescription | null;
  /** The step (s) a model with a band, a ground or a tire takes (its contact period / 90); 0 without contact. */
  contactDt: number;
  /** The file has a `contact` line: its body colliders touch each other and its statics on Featherstone. */
  contact: boolean;
  /** The file's step (s): its `xpbd` block's dt (0.01 without one), what engine 'xpbd' steps it at. */
  dt: number;
  /** The fixed tendons, in file order (docs/mech-format.md, "Tendons"). */
  tendons: TendonDescription[];
  /** The equality constraints, in file order (docs/mech-format.md, "Equality constraints"). */
  equalities: EqualityDescription[];
  /** The actuators, in file order (docs/mech-format.md, "Actuators"). */
  actuators: ActuatorDescription[];
  /** Named states (`keyframe` blocks), in file order. */
  keyframes: KeyframeDescription[];
  /** The keyframe the model starts from (`initial`), -1 for none. */
  initialKeyframe: number;
  integrator: 'verlet' | 'euler' | 'implicit';
}

/** A fixed tendon: length L = Σ coef[k]·q[joints[k]], passive force −stiffness·(L − springlength) − damping·L̇. */
export interface TendonDescription {
  name: string;
  /** The bodies whose joints it couples. */
  joints: number[];
  coef: number[];
  stiffness: number;
  damping: number;
  springlength: number;
  /** null: no range. */
  range: [number, number] | null;
}

/** An equality constraint: joint (q1 = Σ polycoef[k]·q2^k) or connect (anchor of body1 held on body2). */
export interface EqualityDescription {
  name: string;
  type: 'joint' | 'connect';
  body1: number;
  /** -1: none (joint) or the world (connect). */
  body2: number;
  polycoef?: [number, number, number, number, number];
  anchor?: [number, number, number];
  solref: [number, number];
  solimp: [number, number, number];
}

/** An actuator: force = clamp(gain·clamp(ctrl, ctrlrange) + bias[0] + bias[1]·gear·q + bias[2]·gear·qd, forcerange), tau += gear·force
 * (on a tendon: q and qd its length and rate, tau += coef·gear·force on each of its joints). */
export interface ActuatorDescription {
  name: string;
  /** The body whose joint it drives, -1 on a tendon. */
  joint: number;
  /** The tendon it drives, -1 on a joint. */
  tendon: number;
  kind: 'motor' | 'position' | 'velocity' | 'general';
  /** Its ctrl's slot in act. */
  act: number;
  gear: number;
  gain: number;
  bias: [number, number, number];
  /** As given (position, velocity), else 0. */
  kp: number;
  kv: number;
  /** The joint's unit (a tendon's: rad when all its joints are revolute). */
  unit: 'rad' | 'm';
  /** null: not clamped. */
  ctrlrange: [number, number] | null;
  forcerange: [number, number] | null;
}

/** A named state: q (nq), qd (nv), ctrl (nu). */
export interface KeyframeDescription {
  name: string;
  q: ArrayLike<number>;
  qd: ArrayLike<number>;
  ctrl: ArrayLike<number>;
}

/** A tire on a wheel: the Fiala tire's size and friction, and its wheel's brake. */
export interface TireDescription {
  name: string;
  /** The wheel body (revolute: its joint axis is the spin axis). */
  body: number;
  /** Unloaded radius and width (m). */
  radius: number;
  width: number;
  /** Friction at full slip and at none, on a ground of friction `mu`. */
  umin: number;
  umax: number;
  mu: number;
  /** Rolling resistance (m): the moment rolling · Fz against the spin. */
  rolling: number;
  /** The brake on its wheel's joint: [k (N·m/rad), c (N·m·s/rad)], docs/contact.md "Tires". */
  brake: [number, number];
}

/** A track band: shoes, their ground pad (shoe frame: x along the band, y the pin axis) and rollers. */
export interface TrackDescription {
  name: string;
  /** The body holding the band geometry (the hull). */
  root: number;
  shoe0: number;
  nshoe: number;
  /** Pin-to-pin length (m). */
  link: number;
  padZ: number;
  padLength: number;
  padWidth: number;
  thickness: number;
  rollers: {
    body: number;
    radius: number;
    /** 1: sprocket or idler (pin law); 0: road wheel (face law). */
    end: 0 | 1;
    drive: 0 | 1;
    teeth: number;
    /** The brake on its joint: [k (N·m/rad), c (N·m·s/rad)], docs/contact.md. */
    brake: [number, number];
  }[];
}

/** The terrain: a plane z0 + sx x + sy y, or a bicubic height grid (h row-major by y). */
export interface GroundDescription {
  type: 'plane' | 'grid';
  z0: number;
  sx: number;
  sy: number;
  mu: number;
  nx?: number;
  ny?: number;
  x0?: number;
  y0?: number;
  dx?: number;
  dy?: number;
  h?: number[];
}

/**
 * A force element's input: act[act] is added to its force (tsda, N) or joint effort (rsda: N·m on a revolute,
 * N on a prismatic).  With k > 0, act = k × x holds the element's coordinate x (unit) offset by x from rest.
 */
export interface InputDescription {
  name: string;
  act: number;
  element: 'tsda' | 'rsda';
  /** The rsda's joint (body index), -1 for a tsda. */
  body: number;
  unit: 'm' | 'rad';
  k: number;
  c: number;
}

/** Which forward dynamics runs a Sim. */
export type Backend = 'generated' | 'runtime' | 'jit';

/** What steps a Sim: the Featherstone engines (ABA / generated code) or XPBD bodies and joints. */
export type Engine = 'featherstone' | 'xpbd';

/** openModel's options; any other key, or another value, is an error (TypeError / RangeError). */
export interface OpenOptions {
  /**
   * Default: 'generated' for a shipped model name with its own module, 'runtime' for text and for a shipped
   * model without a module (ModelInfo.backend 'runtime', which refuses 'generated'); engine 'xpbd' needs
   * 'runtime'.  'runtime' on a shipped name runs its text on the runtime engine (ABA, loops by RBDA §8.5).
   * 'jit' (a shipped name or text) generates the model's dynamics as WebAssembly in the runtime module and
   * runs them on the generated engine, as fast as a build-time module (docs/wasm.md, "Jit"); a model the
   * generator refuses rejects with a MechError naming why.
   */
  backend?: Backend;
  /** Default 'featherstone'.  'xpbd' runs the same file on XPBD in the runtime module (docs/wasm.md). */
  engine?: Engine;
  /**
   * The wall-clock time one step() call of this Sim may take, in ms (a positive number; Infinity: none).
   * Default 1000, under the page's two-second watchdog.  step()'s options.budgetMs overrides it per call.
   */
  stepBudgetMs?: number;
  /**
   * The mesh files the model's `mesh` lines name, by their path as written there ('.' and '..' resolved, '/' or
   * '\\' between folders; OBJ or STL; docs/mech-format.md, "Meshes"): each mesh that a shape not marked visual draws
   * collides through the convex hull of its file's points (at most 64 of them: the extreme points along evenly
   * spread directions), on backends 'runtime' and 'jit' and engine 'xpbd'.  A shipped model's generated module
   * takes none: with backend 'generated' files are refused; opened by name without a backend, a model that has a
   * generated module runs on it and the files are not read.  A colliding mesh whose file is missing is drawn only, named in
   * Sim.warnings; a malformed file, or one whose points span no volume, is an error naming it.
   */
  files?: Record<string, string | Uint8Array>;
}

/** .mech text to run on the runtime engine. */
export interface ModelText {
  /** The text, or its UTF-8 bytes. */
  text: string | Uint8Array;
  /** Labels error messages and becomes sim.name.  Default 'model'. */
  name?: string;
}

/** A rod of an XPBD Sim (Sim.rods()). */
export interface RodInfo {
  name: string;
  disc: 'rigid' | 'linear' | 'quadratic' | 'cubic';
  /** 0 for the rigid chain, else the element order 1–3. */
  order: number;
  elements: number;
  nodes: number;
  /** Gauss points per element (1 for the rigid chain). */
  gaussPoints: number;
  /** Rest length, m. */
  length: number;
  diameter: number;
  /** Young's modulus, Pa. */
  E: number;
  /** Viscous damping β, Pa s. */
  damping: number;
  /** Density, kg/m³. */
  rho: number;
  /** [r, g, b] in 0..1 from the file's `color`, or null. */
  color: [number, number, number] | null;
}

/** Bad model text.  `message` is `name:line:col: what was expected`. */
export class MechError extends Error {
  constructor(message: string, line: number, column: number);
  readonly name: 'MechError';
  /** 1-based; 0 when the error has no place. */
  readonly line: number;
  /** 1-based; 0 when the error has no place. */
  readonly column: number;
  /** step() stopped by its time budget: the steps it did (the Sim's state is that after them); else undefined. */
  stepsDone: number | undefined;
}

/**
 * One simulation living in WebAssembly memory.  The Float64Array properties
 * are live views of that memory (no copies): write inputs, read results.
 * A view taken before memory grows (when another model is opened in the
 * same module) is detached; reading the property again gives a valid one.
 * Numeric errors (dt, n, non-finite state) throw RangeError; any use after
 * dispose() throws Error.
 */
export class Sim {
  private constructor();
  readonly name: string;
  readonly description: string;
  readonly backend: Backend;
  readonly engine: Engine;
  readonly nq: number;
  readonly nv: number;
  readonly nb: number;
  readonly nact: number;
  /** Actuators: their ctrl is the last nu entries of act. */
  readonly nu: number;
  readonly bodyNames: readonly string[];
  /**
   * What opened but will not behave as written: each mesh that a colliding `shape mesh` draws whose file was not in
   * OpenOptions.files (its shapes are drawn only), and on engine 'xpbd' each equality and tendon range (not held
   * there).  Empty otherwise.
   */
  readonly warnings: readonly string[];
  /** nq joint positions; a floating body's slice is qw qx qy qz x y z.  On XPBD: read back from the bodies after each step. */
  readonly q: Float64Array;
  /** nv joint velocities; a floating body's slice is its body-frame [ω; v]. */
  readonly qd: Float64Array;
  /** nv joint forces. */
  readonly tau: Float64Array;
  /** nact inputs: the force elements' inputs, then each actuator's ctrl. */
  readonly act: Float64Array;
  /** nu actuator inputs in file order, a live view of act's last nu entries; a NaN one is refused by step() and forward(), naming the actuator. */
  readonly ctrl: Float64Array;
  /** 6·nb external forces in base coordinates, [moment about the base origin; force] per body. */
  readonly fext: Float64Array;
  /** nv joint accelerations, written by forward() and (Featherstone only) step(). */
  readonly qdd: Float64Array;
  /** Writable gravity (m/s², base frame): an input of every engine, starting as the model's. */
  readonly gravity: Float64Array;
  /** qdd ← forward dynamics at (q, qd, tau, fext, act, gravity); returns qdd. RangeError on XPBD (no accelerations). */
  forward(): Float64Array;
  /**
   * Advance n (default 1) steps of dt seconds in one call: Störmer–Verlet (one dynamics evaluation per step),
   * or on XPBD one XPBD step of the file's substeps each. RangeError, before any step, past 1e8 units of work
   * (docs/architecture.md, "Work per call").  A call of more than one step reads the clock between parts of
   * it and stops at its time budget (options.budgetMs, else openModel's stepBudgetMs, default 1000 ms) with a
   * MechError whose stepsDone says how many steps it did; the state is that after them.  Parts give the same
   * state bit for bit as one run.
   */
  step(dt: number, n?: number, options?: { budgetMs?: number }): void;
  /** The work one step costs, in the work cap's units (docs/architecture.md, "Work per call"): n ≤ 1e8 / stepWork. */
  readonly stepWork: number;
  /** 7·nb values, per body world x y z, qw qx qy qz; a live view overwritten by the next call. */
  poses(): Float64Array;
  /**
   * Observation values at the current q, qd (a new array): every point of interest's world
   * x y z, vx vy vz, then each tsda's length and rate, then each rsda's q and qd.
   */
  observe(): Float64Array;
  /** Offset of a named element's values in observe() ('poi' | 'tsda' | 'rsda'), or its act[] slot ('act'); -1 if none. */
  find(kind: 'poi' | 'tsda' | 'rsda' | 'act', name: string): number;
  /** XPBD only (else throws): primal and constraint residuals (Tobin & Rucker eqs. 51, 52) of the last substep. */
  residuals(): { primal: number; constraint: number };
  /**
   * XPBD: the rate of `body`'s motor, its joint's `ramp` drive target (rad/s revolute, m/s prismatic). Setting it
   * is an input: the target keeps its value now and turns on at the new rate (no jump). Both throw when the body
   * has no ramp drive or the Sim is not on XPBD; setRampRate when the rate is not finite. `body` is an index in
   * [0, nb) or a body's name; anything else is a RangeError.
   */
  rampRate(body: number | string): number;
  setRampRate(body: number | string, rate: number): void;
  /**
   * The contacts of the last step, 6 per contact: point (world x y z) and unit normal towards the first collider.
   * XPBD: those that pressed in its last substep; Featherstone: those of the constraint solve (docs/contact.md).
   */
  contacts(): Float64Array;
  /** The forces of contacts() on Featherstone, 4 per contact: normal force (N), friction force (world fx fy fz). */
  contactForces(): Float64Array;
  /** The floor: the plane z = height under every body collider of a Featherstone Sim (off by default). */
  setFloor(on: boolean, height?: number): void;
  /** The floor's height when on, else null. */
  readonly floor: number | null;
  /**
   * Wall-clock ms the steps have spent since the Sim opened in the penalty contact stage and in the constraint
   * solve (Featherstone; zeros on XPBD); a report, subtract two readings.
   */
  stageTimes(): { contact: number; solve: number };
  /** The last step's constraint solve: rows, Gauss–Seidel sweeps, residual. */
  solverStats(): { rows: number; sweeps: number; residual: number };
  /** The rods (`rod` blocks) in file order on XPBD; [] on Featherstone, which ignores rods. */
  rods(): RodInfo[];
  /** Rod i's node positions, 3·nodes (world x y z per node); a live view. RangeError for a bad index. */
  rodNodes(i: number): Float64Array;
  /** Rod i's node frames, 9·nodes (row-major material frame → world, d3 the rest tangent); a live view. */
  rodFrames(i: number): Float64Array;
  /**
   * Rod i's interpolated centreline at n + 1 equally spaced arc lengths (default n = 8 per element), so a
   * cubic element is curved: positions 3(n + 1), and with { frames: true } frames 9(n + 1), row-major.
   * Views of one buffer per Sim, overwritten by the next call.
   */
  rodCentreline(i: number, n?: number, options?: { frames?: boolean }): { positions: Float64Array; frames: Float64Array | null };
  /** Per body world velocity, 6·nb (a copy): the body origin's vx vy vz (m/s), then wx wy wz (rad/s), base frame. */
  velocities(): Float64Array;
  /** The length of saveState()'s array: fixed for the life of this Sim. */
  readonly stateSize: number;
  /**
   * The run's state (a copy): time, q, qd, qdd, the contact stage's and the engine's own, everything a step reads
   * besides the inputs, so that restoreState(it) and the same steps repeat the run bit for bit.  Into `into`
   * (a Float64Array of stateSize values, returned) when given, with no allocation; TypeError for another array.
   */
  saveState(into?: Float64Array): Float64Array;
  /**
   * Back to a state saveState() gave on this Sim or another of the same model and engine.  RangeError, the Sim
   * unchanged, when it has another length, a value is not finite or a quaternion is zero.
   */
  restoreState(state: ArrayLike<number>): void;
  /** Mechanical energy (J) of the current state, each engine's own (XPBD: its bodies'). */
  energy(): { kinetic: number; potential: number; total: number };
  /** The parsed model, for drawing it. */
  describe(): ModelDescription;
  /** The total force (N, world) the ground applied in the last step; zeros without a ground. */
  groundReaction(): Float64Array;
  /** The ground's force on each body in the last step, 3 per body (a shoe's pad corners summed); zeros without a ground. */
  groundForces(): Float64Array;
  /** Band roller `body`'s brake torque at level 0 … 1 locked at angle `lock`: level · (k · (lock − q) − c · qd). */
  brakeTorque(body: number | string, level: number, lock: number): number;
  /** Terrain heights at (xs[i], ys[j]) into entry j·nx + i (a copy): what the ground law reads. */
  terrainHeights(xs: ArrayLike<number>, ys: ArrayLike<number>): Float64Array;
  /** The model's initial q and qd; tau, act, fext and qdd zeroed; gravity kept. */
  reset(): void;
  /** The model's keyframes (copies). */
  keyframes(): KeyframeDescription[];
  /** reset(), then a keyframe's q, qd and ctrl, by name or index; RangeError for an unknown one. */
  resetToKeyframe(key: string | number): void;
  /** Bytes in use on this Sim's module heap and that module's linear-memory size. */
  memoryUsage(): { heap: number; linear: number; table: number };
  /** Free everything; idempotent. */
  dispose(): void;
}

/** generateCode's options. */
export interface GenerateOptions {
  /** 'c': the C source the build's mechgen writes; 'wasm': the module mechgen --wasm writes. */
  target: 'c' | 'wasm';
  /** The file's path or name, for error messages; its stem names the functions.  Default 'model'. */
  name?: string;
}

/**
 * The generated dynamics of .mech text (docs/codegen.md): a string of C for target 'c', the bytes of a
 * WebAssembly module for 'wasm'.  Rejects with a MechError on bad text or a model the generator refuses.
 */
export function generateCode(text: string | Uint8Array, options: GenerateOptions & { target: 'c' }): Promise<string>;
export function generateCode(text: string | Uint8Array, options: GenerateOptions & { target: 'wasm' }): Promise<Uint8Array>;
export function generateCode(text: string | Uint8Array, options: GenerateOptions): Promise<string | Uint8Array>;

/** Open a shipped model by name, or run .mech text on the runtime engine (or the jit). */
export function openModel(source: string | ModelText, options?: OpenOptions | null): Promise<Sim>;

/** The shipped models. */
export function listModels(): Promise<ModelInfo[]>;

/** The .mech text of a shipped model. */
export function loadModelText(name: string): Promise<string>;

/**
 * MJCF (MuJoCo) or URDF (ROS) text as .mech text (docs/import.md); rejects with an ImportError naming the
 * file, line, column and element it cannot import.  Open the result with openModel({ text, name }).
 */
export function importModel(text: string, options?: ImportOptions): Promise<ImportResult>;

export interface ImportOptions {
  /** Default: from the root element, <mujoco> or <robot>. */
  format?: 'mjcf' | 'urdf';
  /** The file name error messages and the header show. */
  name?: string;
  /**
   * The files the model names (MJCF `<include>`, mesh files under the compiler's meshdir), by path relative to the
   * model file's folder: text or bytes.  A mesh file not given is a warning (its geoms are not drawn), unless
   * MuJoCo would infer a body's mass from it (then an error).
   */
  files?: Record<string, string | Uint8Array>;
}

export interface ImportResult {
  /** The .mech text: a header saying where it came from and what changed, the source's names kept. */
  text: string;
  /** Everything the importer dropped or changed (also in the text's header). */
  warnings: string[];
}

/** What importModel rejects with: `message` is `file:line:col: <element>: what`. */
export interface ImportError extends Error {
  readonly name: 'ImportError';
  /** 1-based; 0 when the error has no place. */
  readonly line: number;
  /** 1-based; 0 when the error has no place. */
  readonly column: number;
  /** step() stopped by its time budget: the steps it did (the Sim's state is that after them); else undefined. */
  stepsDone: number | undefined;
}

/** A tracked vehicle's drive roller (wasm/drive.mjs). */
export interface DriveRoller {
  name: string;
  body: number;
  /** The drive torque is tau[vidx]. */
  vidx: number;
  qidx: number;
  /** m: the roller's pin-line radius. */
  radius: number;
  /** Brake gains [k (N·m/rad), c (N·m·s/rad)]. */
  brake: [number, number];
  /** μ · weight · radius (N·m): what the ground's friction can take at that radius. */
  grip: number;
  /** By the sign of its root-frame y: 'left' (> 0), 'right' (< 0), null on the centre line. */
  side: 'left' | 'right' | null;
  /** +1 when its joint turns about the root's +y: sign · tau drives the vehicle towards the root's +x. */
  sign: 1 | -1;
}

/** Every band's drive rollers, in file order. */
export function driveRollers(model: object): DriveRoller[];
/** The two drive rollers, one per side (left first), or null. */
export function differentialPair(drives: DriveRoller[]): [DriveRoller, DriveRoller] | null;
/** Throttle and steer (−1 … 1) as the sides' commands: (throttle ∓ steer) / max(1, |throttle| + |steer|). */
export function differential(throttle: number, steer: number): { left: number; right: number };
/** sign · torque · clamp(u − sign · qd · radius / topSpeed, −1, 1). */
export function motorTorque(drive: DriveRoller, u: number, torque: number, topSpeed: number, qd: number): number;

export interface DriverOptions {
  /** Full-throttle torque per sprocket, N·m; default half the grip. */
  torque?: number;
  /** Track speed of full throttle, m/s; default 5. */
  topSpeed?: number;
}

export interface DriveInputs {
  /** −1 … 1; needs a differential pair. */
  throttle?: number;
  /** −1 … 1, > 0 turns left; needs a differential pair. */
  steer?: number;
  /** 0 … 1, for every drive roller or one per drive roller. */
  brake?: number | number[];
  /** A torque of one's own per drive roller, N·m. */
  tau?: number[];
}

/** Steps a tracked vehicle with throttle, steer and brakes (docs/wasm.md, "Driving a tracked vehicle"). */
export class Driver {
  /** `model`: sim.describe(), when the caller has it already. */
  constructor(sim: Sim, options?: DriverOptions, model?: ModelDescription);
  sim: Sim;
  readonly drives: DriveRoller[];
  readonly pair: [DriveRoller, DriveRoller] | null;
  readonly torque: number;
  readonly topSpeed: number;
  /** Throttle, steer or a brake is on: each step needs its own torques (the page then steps one at a time). */
  readonly active: boolean;
  /** The inputs as set() left them: throttle and steer, and per drive roller its brake level and own torque. */
  readonly throttle: number;
  readonly steer: number;
  readonly brake: readonly number[];
  readonly extra: readonly number[];
  /** Per drive roller, the joint position its brake holds: where it was applied, or relock() found it. */
  readonly locks: readonly number[];
  set(inputs: DriveInputs): void;
  relock(): void;
  commands(): number[];
  /** Writes the drive rollers' torques into sim.tau for the state as it is; returns them. */
  apply(): number[];
  step(dt: number, n?: number): void;
}

/** A simple powertrain (wasm/wheel_drive.mjs): an engine map, an automatic gearbox, a final drive, the driven axle. */
export interface Powertrain {
  /** Engine speeds (rad/s) of the map's points. */
  speed: readonly number[];
  /** Full- and closed-throttle engine torque (N·m) at those speeds. */
  full: readonly number[];
  closed: readonly number[];
  /** Forward gear ratios (output over input speed), reverse ratio. */
  gears: readonly number[];
  reverse: number;
  /** Engine speeds (rad/s) below which the gearbox shifts down, above which up. */
  downshift: number;
  upshift: number;
  /** Final drive ratio. */
  final: number;
  driven: 'front' | 'rear';
}
/** The HMMWV's, from Project Chrono's HMMWV model (engine map, gearbox, conical gear; rear-wheel drive). */
export const HMMWV_POWERTRAIN: Powertrain;
/** closed + throttle · (full − closed) at engine speed w (rad/s). */
export function engineTorque(pt: Powertrain, w: number, throttle: number): number;

/** A tire's wheel (wasm/wheel_drive.mjs). */
export interface TireWheel {
  name: string;
  body: number;
  /** The wheel torque is tau[vidx]. */
  vidx: number;
  qidx: number;
  radius: number;
  /** Brake gains [k (N·m/rad), c (N·m·s/rad)]. */
  brake: [number, number];
  side: 'left' | 'right';
  axle: 'front' | 'rear';
  /** +1 when the joint turns about the world's +y: sign · tau drives the vehicle towards +x. */
  sign: 1 | -1;
}
/** Every tire's wheel, in file order, placed by the Sim's current poses. */
export function tireWheels(model: ModelDescription, sim: Sim): TireWheel[];

export interface WheelDriverOptions {
  powertrain?: Powertrain;
  /** The steering input's travel at steer ±1 (m of rack, rad of Pitman arm). */
  steerRange?: number;
}

/** Steps a wheeled vehicle with throttle, steer and brakes (docs/wasm.md, "Driving a wheeled vehicle"). */
export class WheelDriver {
  constructor(sim: Sim, options?: WheelDriverOptions, model?: ModelDescription);
  sim: Sim;
  readonly wheels: TireWheel[];
  readonly driven: TireWheel[];
  readonly powertrain: Powertrain;
  readonly steering: InputDescription | null;
  readonly steerRange: number;
  /** The gearbox's forward gear index. */
  readonly gear: number;
  readonly active: boolean;
  readonly throttle: number;
  readonly steer: number;
  readonly brake: readonly number[];
  readonly locks: readonly number[];
  /** throttle −1 … 1 (below 0: reverse), steer −1 … 1 (> 0 turns left), brake 0 … 1 (all or per wheel). */
  set(inputs: { throttle?: number; steer?: number; brake?: number | number[] }): void;
  relock(): void;
  /** The powertrain now: gear (−1 reverse), engine speed (rad/s) and torque (N·m), the torque per driven wheel. */
  drive(): { gear: number; engine: number; torque: number; wheel: number };
  apply(): number[];
  step(dt: number, n?: number): void;
}
