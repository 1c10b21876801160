// plots.js — the live uPlot chart against simulated time: any number of the model's signals at once, energies
// on the left axis (J), the rest on the right; and the picker that chooses them.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const WINDOW = 10;        // seconds of simulated time shown
const MAX_POINTS = 4000;  // samples kept
const LEGEND = 28;        // px under the chart for its legend
const FONT = '11px system-ui, sans-serif';
const COLORS = ['#f2a541', '#5b8def', '#4cc38a', '#e5636b', '#a57ee0', '#47c1d1', '#d9c24a', '#e58ac8'];

/**
 * The signals a user can plot for a model: with bodies, their energy (Sim.energy(): total and kinetic); q[i],
 * qd[i] per coordinate, each body's world x, y, z, the model's observation values (sim.observe(): each point of
 * interest's world position and velocity, each tsda's length and rate, each rsda's q and qd), with a ground its
 * total force (sim.groundReaction()), and per rod its tip position, its mean axial strain (centreline length
 * against its length at the start) and its kinetic energy; side by side (side-by-side.js), the gap between the
 * two runs and the XPBD run's residuals. Each is {label, read(frame), energy} where frame is the worker's
 * snapshot; energy marks a value in J.
 */
export function signalsFor(info, { sideBySide = false } = {}) {
  const out = [];
  const add = (label, read, energy = false, own = false) => out.push({ label, read, energy, own });
  if (info.nb > 0) {
    add('total energy', (f) => f.energy, true);
    add('kinetic energy', (f) => f.kinetic, true);
  }
  // "q[i] body" or, inside a multi-coordinate joint, "q[i] body[k]".
  const label = (kind, i, first, count) => {
    const b = info.model.bodies.find((b) => i >= b[first] && i < b[first] + b[count]);
    return `${kind}[${i}] ${b.name}${b[count] > 1 ? `[${i - b[first]}]` : ''}`;
  };
  for (let i = 0; i < info.nq; i++) add(label('q', i, 'qidx', 'nq'), (f) => f.q[i]);
  for (let i = 0; i < info.nv; i++) add(label('qd', i, 'vidx', 'nv'), (f) => f.qd[i]);
  info.bodyNames.forEach((name, b) => {
    ['x', 'y', 'z'].forEach((c, k) => add(`${name}.${c}`, (f) => f.poses[7 * b + k]));
  });
  const { pois = [], tsdas = [], rsdas = [] } = info.model;
  const observed = (label, k) => add(label, (f) => f.observe?.[k] ?? NaN);
  pois.forEach((p, i) => ['x', 'y', 'z', 'vx', 'vy', 'vz'].forEach((c, k) => observed(`poi ${p.name}.${c}`, 6 * i + k)));
  let k = 6 * pois.length;
  for (const t of tsdas) ['length', 'rate'].forEach((c) => observed(`tsda ${t.name} ${c}`, k++));
  for (const r of rsdas) ['q', 'qd'].forEach((c) => observed(`rsda ${r.name} ${c}`, k++));
  if (info.model.ground) ['x', 'y', 'z'].forEach((c, i) => add(`ground force ${c}`, (f) => f.ground?.[i] ?? NaN));
  (info.rodInfo ?? []).forEach((rod, i) => {
    const n = info.rodSamples[i];
    const tip = 3 * n; // the last centreline sample is the rod's end
    ['x', 'y', 'z'].forEach((c, k) => add(`rod ${rod.name} tip.${c}`, (f) => f.rods[i]?.[tip + k] ?? NaN));
    const rest = centrelineLength(info.rods[i], n);
    add(`rod ${rod.name} strain`, (f) => (f.rods[i] ? centrelineLength(f.rods[i], n) / rest - 1 : NaN));
    add(`rod ${rod.name} kinetic energy`, (f) => f.rodKinetic?.[i] ?? NaN, true);
  });
  if (sideBySide) {
    add('gap (m)', (f) => f.ghost?.gap ?? NaN, false, true); // on an axis of its own: millimetres beside radians
    add('XPBD primal residual', (f) => f.ghost?.primal ?? NaN);
    add('XPBD constraint residual', (f) => f.ghost?.constraint ?? NaN);
  }
  return out;
}

/** Length of the polyline through the n + 1 centreline samples at the head of `data` (xpbd-models.js, sampleRods). */
function centrelineLength(data, n) {
  let s = 0;
  for (let k = 0; k < n; k++) s += Math.hypot(data[3 * k + 3] - data[3 * k], data[3 * k + 4] - data[3 * k + 1], data[3 * k + 5] - data[3 * k + 2]);
  return s;
}

/** The signals plotted by default: energy, and a tracked vehicle's hull x, a rod's tip z or the first coordinate. */
export function defaultSignals(info, signals) {
  const hull = info.model.tracks?.length ? `${info.bodyNames[info.model.tracks[0].root]}.x` : null;
  const rod = info.rodInfo?.length ? `rod ${info.rodInfo[0].name} tip.z` : null;
  const first = signals.find((s) => s.label === hull || s.label === rod) ?? signals.find((s) => !s.energy);
  return signals.filter((s) => s.label === 'total energy' || s === first);
}

// A y range at least a millionth of the values' size wide: a signal that only wobbles in its last bits
// (a vehicle's attitude quaternion, a stiff system's energy) would otherwise ask uPlot for ~1e15 ticks.
function padded(u, min, max) {
  if (min === null || max === null) return [0, 1];
  const span = Math.max(max - min, 1e-6 * Math.max(Math.abs(min), Math.abs(max), 1));
  const pad = max - min < span ? (span - (max - min)) / 2 : 0.05 * span;
  return [min - pad, max + pad];
}

/** Decimals that write `x` (a tick step) exactly: 0.25 → 2, 1e-7 → 7. */
function decimals(x) {
  for (let k = 0; k < 16; k++) {
    const y = x * 10 ** k;
    if (Math.abs(y - Math.round(y)) < 1e-6 * y) return k;
  }
  return 16;
}

/**
 * Tick labels with as many digits as the step between ticks needs, so neighbours never read the same (uPlot's
 * default keeps three decimals: 1.0001 and 1.0002 both read "1"); very large or small values in e-notation.
 */
function tickLabels(u, splits) {
  if (!splits.length) return [];
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) : 0;
  const big = Math.max(...splits.map(Math.abs));
  if (!step || !big) return splits.map((v) => String(v));
  const snap = (v) => (Math.abs(v) < step * 1e-6 ? 0 : v);
  if (big >= 1e5 || big < 1e-3) {
    const digits = Math.min(Math.max(Math.floor(Math.log10(big)) - Math.floor(Math.log10(step)) + decimals(step / 10 ** Math.floor(Math.log10(step))), 0), 15);
    return splits.map((v) => snap(v).toExponential(digits).replace('e+', 'e'));
  }
  const d = Math.min(decimals(step), 15);
  return splits.map((v) => snap(v).toFixed(d));
}

const measure = document.createElement('canvas').getContext('2d');
measure.font = FONT;

/** A y axis as wide as its longest tick label (plus ticks, gap and its title). */
function axisWidth(u, values) {
  const longest = Math.max(0, ...(values ?? []).map((v) => measure.measureText(v).width));
  return Math.ceil(longest) + 8 + 4 + 18;
}

// An axis; `grid` draws its lines across the chart.
const axis = (scale, side, label, show, grid) => ({
  scale,
  side,
  label,
  show,
  stroke: '#8a97a8',
  grid: { show: grid, stroke: '#ffffff10', width: 1 },
  ticks: { stroke: '#ffffff18', width: 1, size: 8 },
  font: FONT,
  labelFont: FONT,
  gap: 4,
  size: side === 2 ? 36 : axisWidth,
  labelSize: 16,
  values: tickLabels,
});

export function createPlot(container) {
  let plotted = [];   // the plotted signals
  let data = [[]];    // t, then one column per signal
  let changed = false;
  let plot = null;

  function build() {
    plot?.destroy();
    const { clientWidth: width, clientHeight: height } = container;
    const energies = plotted.some((s) => s.energy);
    const owns = plotted.filter((s) => s.own); // each on a scale and axis of its own (the side-by-side gap)
    const others = plotted.filter((s) => !s.energy && !s.own);
    plot = new uPlot(
      {
        width: Math.max(width, 200),
        height: Math.max(height - LEGEND, 100),
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // Until time moves, the window ahead (uPlot would widen one sample to 0..100).
          x: { time: false, range: (u, min, max) => (data[0].length < 2 ? [data[0][0] ?? 0, (data[0][0] ?? 0) + WINDOW] : [min, max]) },
          E: { auto: true, range: padded },
          s: { auto: true, range: padded },
          ...Object.fromEntries(owns.map((s) => [s.label, { auto: true, range: padded }])),
        },
        series: [
          { label: 't (s)' },
          ...plotted.map((s, i) => ({
            label: s.energy ? `${s.label} (J)` : s.label,
            scale: s.energy ? 'E' : s.own ? s.label : 's',
            stroke: COLORS[i % COLORS.length],
            width: 1.5,
            points: { show: false },
          })),
        ],
        axes: [
          axis('x', 2, undefined, true, false),
          axis('E', 3, 'energy (J)', energies, energies),
          axis('s', 1, others.length === 1 ? others[0].label : 'signals', others.length > 0, !energies),
          ...owns.map((s, i) => axis(s.label, 1, s.label, true, !energies && !others.length && i === 0)),
        ],
      },
      data,
      container,
    );
    const canvas = plot.root.querySelector('canvas');
    canvas?.setAttribute('role', 'img');
    canvas?.setAttribute('aria-label', `Plot against time of ${plotted.map((s) => s.label).join(', ') || 'no signal'}`);
  }
  new ResizeObserver(() => plot?.setSize({ width: Math.max(container.clientWidth, 200), height: Math.max(container.clientHeight - LEGEND, 100) })).observe(container);

  return {
    /** Starts over, plotting `signals` (from signalsFor). */
    reset(signals) {
      plotted = [...signals];
      data = [[], ...plotted.map(() => [])];
      changed = false;
      build();
    },
    /** A frame's sample: its time and the plotted signals' values. */
    push(t, frame) {
      const last = data[0].length - 1;
      if (last >= 0 && t <= data[0][last]) return; // paused, or time went back on reset
      data[0].push(t);
      plotted.forEach((s, i) => data[i + 1].push(s.read(frame)));
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
    /** What is plotted: the column titles (time first) and the columns, as drawn. */
    columns() {
      return { header: plot.series.map((s) => s.label), data: data.map((d) => [...d]) };
    },
    /** Each plotted series' label and the scale (y axis) it is drawn on. */
    scales() {
      return plot.series.slice(1).map((s) => ({ label: s.label, scale: s.scale }));
    },
  };
}

/**
 * The signal picker: a chip per plotted signal (× takes it off) and a list to add one. `onChange(signals)`
 * gets the plotted signals after every change.
 */
export function createSignalPicker(chips, select, onChange) {
  let signals = [];
  let plotted = [];

  function show() {
    chips.replaceChildren(
      ...plotted.map((s, i) => {
        const chip = document.createElement('button');
        chip.type = 'button';
        chip.className = 'chip';
        chip.style.setProperty('--series', COLORS[i % COLORS.length]); // its line's colour
        chip.textContent = `${s.label} ×`;
        chip.title = `Stop plotting ${s.label}`;
        chip.addEventListener('click', () => set(plotted.filter((x) => x !== s)));
        return chip;
      }),
    );
    const head = document.createElement('option');
    head.value = '';
    head.textContent = plotted.length ? '+ signal' : '+ pick a signal';
    select.replaceChildren(
      head,
      ...signals.map((s, i) => {
        const o = document.createElement('option');
        o.value = String(i);
        o.textContent = s.label;
        o.disabled = plotted.includes(s);
        return o;
      }),
    );
    select.value = '';
  }

  function set(next) {
    plotted = next;
    show();
    onChange(plotted);
  }

  select.addEventListener('change', () => {
    const s = signals[Number(select.value)];
    if (select.value !== '' && s && !plotted.includes(s)) set([...plotted, s]);
  });

  return {
    /** A model's signals; the plotted ones are those of `keep` (labels) it has, else `fallback`. */
    setSignals(list, keep, fallback) {
      signals = list;
      const kept = list.filter((s) => keep.includes(s.label));
      set(kept.some((s) => !s.energy) ? kept : fallback);
    },
    get plotted() {
      return plotted;
    },
  };
}
