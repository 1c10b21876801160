// plots.js — live uPlot chart against simulated time: total energy (left axis) and one user-chosen signal
// (right axis).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const WINDOW = 10;        // seconds of simulated time shown
const MAX_POINTS = 4000;  // samples kept
const LEGEND = 28;        // px under the chart for its legend

const axis = (scale, side, label) => ({
  scale,
  side,
  label,
  stroke: '#8a97a8',
  grid: { stroke: side === 3 ? '#ffffff10' : 'transparent', width: 1 },
  ticks: { stroke: '#ffffff18', width: 1 },
  font: '11px var(--sans)',
  labelFont: '11px var(--sans)',
  size: 56,
  labelSize: 16,
});

/**
 * The signals a user can plot for a model: q[i], qd[i] per coordinate, each body's world x, y, z, and the
 * model's observation values (sim.observe(): each point of interest's world position and velocity, each
 * tsda's length and rate, each rsda's q and qd), and with a ground its total force (sim.groundReaction()).
 * Each is {label, read(frame)} where frame is the worker's snapshot.
 */
export function signalsFor(info) {
  const out = [];
  // "q[i] body" or, inside a multi-coordinate joint, "q[i] body[k]".
  const label = (kind, i, first, count) => {
    const b = info.model.bodies.find((b) => i >= b[first] && i < b[first] + b[count]);
    return `${kind}[${i}] ${b.name}${b[count] > 1 ? `[${i - b[first]}]` : ''}`;
  };
  for (let i = 0; i < info.nq; i++) out.push({ label: label('q', i, 'qidx', 'nq'), read: (f) => f.q[i] });
  for (let i = 0; i < info.nv; i++) out.push({ label: label('qd', i, 'vidx', 'nv'), read: (f) => f.qd[i] });
  info.bodyNames.forEach((name, b) => {
    ['x', 'y', 'z'].forEach((c, k) => out.push({ label: `${name}.${c}`, read: (f) => f.poses[7 * b + k] }));
  });
  const { pois = [], tsdas = [], rsdas = [] } = info.model;
  const observed = (label, k) => out.push({ label, read: (f) => f.observe?.[k] ?? NaN });
  pois.forEach((p, i) => ['x', 'y', 'z', 'vx', 'vy', 'vz'].forEach((c, k) => observed(`poi ${p.name}.${c}`, 6 * i + k)));
  let k = 6 * pois.length;
  for (const t of tsdas) ['length', 'rate'].forEach((c) => observed(`tsda ${t.name} ${c}`, k++));
  for (const r of rsdas) ['q', 'qd'].forEach((c) => observed(`rsda ${r.name} ${c}`, k++));
  if (info.model.ground) ['x', 'y', 'z'].forEach((c, i) => out.push({ label: `ground force ${c}`, read: (f) => f.ground?.[i] ?? NaN }));
  return out;
}

// A y range at least a millionth of the values' size wide: a signal that only wobbles in its last bits
// (a vehicle's attitude quaternion, a stiff system's energy) would otherwise ask uPlot for ~1e15 ticks.
function padded(u, min, max) {
  if (min === null || max === null) return [0, 1];
  const span = Math.max(max - min, 1e-6 * Math.max(Math.abs(min), Math.abs(max), 1));
  const pad = max - min < span ? (span - (max - min)) / 2 : 0.05 * span;
  return [min - pad, max + pad];
}

export function createPlot(container) {
  const data = [[], [], []];
  let signalName = '';
  let changed = false;
  let plot = null;

  function build() {
    plot?.destroy();
    const { clientWidth: width, clientHeight: height } = container;
    plot = new uPlot(
      {
        width: Math.max(width, 200),
        height: Math.max(height - LEGEND, 100),
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: false, range: (u, min, max) => (min === null || min === max ? [min ?? 0, (min ?? 0) + WINDOW] : [min, max]) },
          E: { auto: true, range: padded },
          s: { auto: true, range: padded },
        },
        series: [
          { label: 't (s)' },
          { label: 'total energy (J)', scale: 'E', stroke: '#f2a541', width: 1.5, points: { show: false } },
          { label: signalName, scale: 's', stroke: '#5b8def', width: 1.5, points: { show: false } },
        ],
        axes: [axis('x', 2), axis('E', 3, 'energy (J)'), axis('s', 1, signalName)],
      },
      data,
      container,
    );
  }
  new ResizeObserver(() => plot?.setSize({ width: Math.max(container.clientWidth, 200), height: Math.max(container.clientHeight - LEGEND, 100) })).observe(container);

  return {
    /** Starts over, plotting energy and the signal called `label`. */
    reset(label) {
      signalName = label;
      for (const d of data) d.length = 0;
      build();
    },
    push(t, energy, signal) {
      const last = data[0].length - 1;
      if (last >= 0 && t <= data[0][last]) return; // paused, or time went back on reset
      data[0].push(t);
      data[1].push(energy);
      data[2].push(signal);
      changed = true;
      let drop = 0;
      while (drop < data[0].length && (data[0][drop] < t - WINDOW || data[0].length - drop > MAX_POINTS)) drop++;
      if (drop) for (const d of data) d.splice(0, drop);
    },
    /** Draws new samples, if any. */
    redraw() {
      if (!changed) return;
      changed = false;
      plot.setData(data);
    },
  };
}
