// plot-panel.js — the plot under the view (plots.js draws it): which signals it plots, picked by the user and kept
// by label across a reload or another model that has them, and its CSV download.
import { createPlot, createSignalPicker, defaultSignals, signalsFor } from './plots.js';
import { toCsv } from './csv.js';
import { download } from './download.js';
import { page, setSignals } from './page-state.js';

const $ = (id) => document.getElementById(id);

export function createPlotPanel() {
  const plot = createPlot($('plot'));
  const picker = createSignalPicker($('plotted'), $('signal'), (signals) => {
    plot.reset(signals);
    if (page.lastFrame) plot.push(page.lastFrame.time, page.lastFrame);
  });

  $('csv').addEventListener('click', () => {
    const { header, data } = plot.columns();
    download(`${page.model ?? 'plot'}.csv`, toCsv(header, data), 'text/csv');
  });

  /**
   * The signals of the model `info` (with the side-by-side gap when `sideBySide`), the plotted ones kept by label;
   * `add` plots more.
   */
  function setup(info, { sideBySide, add = [] }) {
    setSignals(signalsFor(info, { sideBySide }));
    picker.setSignals(page.signals, [...picker.plotted.map((s) => s.label), ...add], defaultSignals(info, page.signals));
  }

  return { plot, picker, setup };
}
