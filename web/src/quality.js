// quality.js — the rendering level. While playing, a slow renderer (software WebGL, a weak GPU) gives up shadows
// first, then the decorations, then resolution, and never renders below MIN_PIXEL_RATIO; it climbs back when
// there is headroom. The user may instead fix the level: 'high' (full, always) or 'low' (cheapest).

/** The levels, full first: pixel ratio (× the device's), shadows, decorations (joint axes, points of interest, world frame). */
const LEVELS = [
  { pixelRatio: 1, shadows: true, decorations: true },
  { pixelRatio: 1, shadows: false, decorations: true },
  { pixelRatio: 1, shadows: false, decorations: false },
  { pixelRatio: 0.85, shadows: false, decorations: false },
  { pixelRatio: 0.75, shadows: false, decorations: false },
];
export const MIN_PIXEL_RATIO = 0.75;
export const QUALITIES = ['auto', 'high', 'low'];

const SLOW_FPS = 50;  // a window below this while playing: one level down
const FAST_FPS = 58;  // windows at or above this count toward one level up

/**
 * The level state; `apply(level)` is called with an entry of LEVELS whenever the level changes.
 * adapt(fps) is called once per measuring window: fps while playing, null while paused.
 */
export function createQuality(apply) {
  const lowest = LEVELS.length - 1;
  let mode = 'auto';
  let level = 0;
  let good = 0;       // consecutive fast windows
  let fellFrom = [];  // per level: how often playing had to leave it for being too slow
  let playLevel = 0;  // the level playing last ran at
  let playing = false;

  function set(l) {
    if (l === level) return;
    level = l;
    apply(LEVELS[l]);
  }

  return {
    get level() {
      return level;
    },
    get mode() {
      return mode;
    },
    /** 'auto', 'high' or 'low'. */
    setMode(m) {
      mode = QUALITIES.includes(m) ? m : 'auto';
      good = 0;
      playLevel = 0;
      set(mode === 'low' ? lowest : 0);
    },
    /** Another model: every level is worth another try. */
    forget() {
      fellFrom = [];
    },
    /**
     * One measuring window: `fps` while playing, null while paused (auto then draws at full quality: a still
     * picture is cheap, and remembers the playing level for the next play). Returns the level, 0 = full.
     */
    adapt(fps) {
      if (mode !== 'auto') return level;
      if (fps === null) {
        playing = false;
        set(0);
      } else if (!playing) {
        playing = true;
        good = 0;
        set(playLevel);
      } else if (fps < SLOW_FPS && level < lowest) {
        fellFrom[level] = (fellFrom[level] ?? 0) + 1;
        set(level + 1);
        good = 0;
      } else if (fps >= FAST_FPS && level > 0 && ++good >= 4 << Math.min(fellFrom[level - 1] ?? 0, 4)) {
        // Climb back after 4 fast windows, and after twice as many each time the level above proved too
        // slow (up to 64): a renderer at its limit does not drop a frame every few seconds to re-probe.
        set(level - 1);
        good = 0;
      }
      if (playing) playLevel = level;
      return level;
    },
  };
}
