// status.js — the page's messages: the banner over the view, the toast, the parse status under the
// editor and the backend badge. Text only, always through textContent (messages quote model text).
const $ = (id) => document.getElementById(id);

export function banner(text) {
  $('banner-text').textContent = text;
  $('banner').hidden = false;
}

export function clearBanner() {
  $('banner').hidden = true;
}
$('banner-close').addEventListener('click', clearBanner);

let toastTimer = 0;
/** A toast, or `text` added to the one shown (values a link brought that were moved, say: none is lost). */
export function toastMore(text) {
  toast($('toast').hidden ? text : `${$('toast').textContent} ${text}`);
}

export function toast(text) {
  $('toast').textContent = text;
  $('toast').hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => ($('toast').hidden = true), 2500);
}

/** "line L, column C: message", or the message alone when it has no place. */
export const describeError = (e) => (e.line ? `line ${e.line}, column ${e.column}: ${e.message}` : e.message);

/** Under the editor: the first parse error, or that the text parses. */
export function parseStatus(err) {
  const el = $('parse-status');
  el.className = `parse-status ${err ? 'error' : 'ok'}`;
  el.textContent = err ? describeError(err) : '✓ parses';
  el.title = el.textContent;
}

const BACKENDS = {
  generated: 'generated: the module pre-generated for this shipped model at build time',
  runtime: 'runtime: the engine that parses and runs any .mech text',
  jit: 'jit: this text compiled to WebAssembly in the page, running at generated-code speed',
};

/** "compiling…" with its cancel beside the badge, while a jit compile holds the worker (jit-switch.js). */
export function showCompiling(on) {
  $('compiling').hidden = !on;
}

/** The badge: which engine runs the model, and `note` (a sentence: what the jit did with it) in its tooltip. */
export function showBackend(backend, note = '') {
  const el = $('backend');
  el.textContent = backend;
  el.classList.toggle('badge-runtime', backend !== 'generated');
  el.classList.toggle('badge-jit', backend === 'jit');
  el.title = [BACKENDS[backend] ?? backend, note].filter(Boolean).join('\n');
}
