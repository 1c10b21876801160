// test-hooks.js — window.playground: read-only hooks for the browser tests (tests/browser/) and for poking around
// from the console. Each part of the page adds its own (`hooks` of the inspector, time line, side by side, jit
// switch and downloads).
import { page } from './page-state.js';

const $ = (id) => document.getElementById(id);

export function installHooks({ scene, editor, controls, plots, playback, dropsHandled, parts }) {
  const { plot, picker } = plots;
  window.playground = {
    models: () => page.models.map((m) => ({ ...m })),
    status: () => {
      const f = page.lastFrame;
      const { fps, rtf } = playback.meters();
      return {
        ready: page.ready,
        model: page.model,
        backend: page.info?.backend ?? null,
        loaded: Boolean(page.info),
        playing: page.playing,
        stepping: playback.stepping(), // a frame request is out: a frame may still arrive
        blown: page.blown,
        time: f?.time ?? 0,
        steps: f?.steps ?? 0,
        q: f ? [...f.q] : [],
        qd: f ? [...f.qd] : [],
        poses: f ? [...f.poses] : [],
        velocities: f ? [...f.velocities] : [], // per body, world [v; ω]
        ground: f?.ground ? [...f.ground] : null,
        fps,
        rtf,
        load: f?.load ?? null,
        banner: $('banner').hidden ? null : $('banner-text').textContent,
        lastToast: $('toast').textContent, // the last toast's text, kept after it fades
        drops: dropsHandled(),
      };
    },
    pixelStats: () => scene.pixelStats(),
    /** pixelStats of the model's meshes alone (`shape mesh` drawn from their files); null when it draws none. */
    meshPixels: () => (page.view?.meshObjects?.().length ? scene.pixelStats(page.view.meshObjects()) : null),
    /** The triangles each drawn mesh has (a heavy one simplified: mesh-assets.js). */
    meshTriangles: () => (page.view?.meshObjects?.() ?? []).map((o) => o.geometry.getAttribute('position').count / 3),
    /** Where the model's box falls on the canvas, in fractions of it (scene.js, framing). */
    framing: () => (page.view ? scene.framing() : null),
    renderStats: () => scene.renderStats(),
    editorErrors: () => editor.errors(),
    editorText: () => editor.text,
    inputs: () => controls.inputs(),
    /** The plottable signals' labels, the plotted ones, and one signal's value in the last frame. */
    signals: () => page.signals.map((s) => s.label),
    plotted: () => picker.plotted.map((s) => s.label),
    /** The plot's columns as drawn: titles (time first) and values. */
    plotColumns: () => plot.columns(),
    /** The plotted series' labels and the y scale each is drawn on. */
    plotScales: () => plot.scales(),
    signalValue: (label) => {
      const s = page.signals.find((x) => x.label === label);
      return s && page.lastFrame ? s.read(page.lastFrame) : null;
    },
    settings: () => ({ ...controls.settings }),
    camera: () => scene.getCamera(),
    /** Per rod of the shown model: the first and last centreline sample [x, y, z] of the last frame. */
    rods: () => (page.lastFrame?.rods ?? []).map((r, i) => {
      const n = page.info.rodSamples[i];
      return { start: [...r.subarray(0, 3)], end: [...r.subarray(3 * n, 3 * n + 3)], samples: n + 1 };
    }),
    rodInfo: () => (page.info?.rodInfo ?? []).map((r) => ({ ...r })),
    /** The open model as Sim.describe() gave it (a copy), or null. */
    describe: () => (page.info ? structuredClone(page.info.model) : null),
    /** A tracked model's drawing (track-view.js): per band its instanced shoes, the rollers, the terrain mesh. */
    tracks: () => page.view?.trackStats?.() ?? null,
    ...Object.assign({}, ...parts.map((p) => p.hooks)),
  };
}
