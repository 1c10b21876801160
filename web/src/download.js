// download.js — files handed to the browser to save: the editor's Download menu (the model's .mech text; its
// generated C as a zip that compiles on its own, with a main.c; its WebAssembly module as a zip with a loader:
// code-bundle.js) and the helper every download goes through.
import { cFiles, describeC, loaderFor } from './code-bundle.js';
import { zip } from './zip.js';
import generatedH from '../../core/sim/generated.h?raw';
import sincosH from '../../core/spatial/mech_sincos.h?raw';

const HEADERS = { 'sim/generated.h': generatedH, 'spatial/mech_sincos.h': sincosH };

/** Hands `data` (text or bytes) to the browser as a download named `name`, of MIME type `type`. */
export function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000); // the download has long started
}

const FILES = [
  { kind: 'mech', ext: 'mech', type: 'text/plain', what: 'the model text in the editor' },
  { kind: 'c', ext: 'c.zip', type: 'application/zip',
    what: 'its generated C (the forward dynamics the build generates) with the headers it includes and a main.c: cc main.c <model>.c -lm' },
  { kind: 'wasm', ext: 'wasm.zip', type: 'application/zip',
    what: 'its generated WebAssembly module with a loader of ten lines: node <model>.mjs' },
];

/** The zip's files for kind 'c' or 'wasm' of `model` ({ name, text, state: { q, qd } or null }). */
async function bundle(kind, model, generate) {
  const { name, text, state } = model;
  const c = await generate(text, name, 'c');
  if (kind === 'c') return cFiles(name, c, HEADERS, state?.q, state?.qd);
  const wasm = await generate(text, name, 'wasm');
  return [{ name: `${name}/${name}.wasm`, data: wasm },
    { name: `${name}/${name}.mjs`, data: loaderFor(name, describeC(c), state?.q, state?.qd) }];
}

/**
 * The Download button and its menu, placed after `anchor`. `current()` gives the model shown as { name, text,
 * engine, state } (state: its initial { q, qd }) or null; `generate(text, name, target)` resolves to the C (a
 * string) or the module (bytes), and
 * rejects with a message (`describe(e)` words it) that `report` shows. `setAvailable(codegen)` says whether
 * the build can generate code; `update()` follows the model shown.
 */
export function createDownloads(anchor, { current, generate, describe, report }) {
  const wrap = document.createElement('div');
  wrap.className = 'download';
  const button = document.createElement('button');
  Object.assign(button, { type: 'button', className: 'btn btn-small', id: 'download', textContent: 'Download ▾' });
  button.setAttribute('aria-haspopup', 'menu');
  const menu = document.createElement('div');
  Object.assign(menu, { className: 'download-menu', id: 'download-menu', hidden: true });
  menu.setAttribute('role', 'menu');
  const items = FILES.map((f) => {
    const item = document.createElement('button');
    Object.assign(item, { type: 'button', className: 'download-item' });
    item.dataset.kind = f.kind;
    item.setAttribute('role', 'menuitem');
    item.addEventListener('click', () => save(f));
    menu.append(item);
    return item;
  });
  wrap.append(button, menu);
  anchor.after(wrap);

  let codegen = false;

  const close = () => (menu.hidden = true);
  button.addEventListener('click', () => {
    update();
    menu.hidden = button.disabled || !menu.hidden;
  });
  document.addEventListener('pointerdown', (e) => wrap.contains(e.target) || close());
  wrap.addEventListener('keydown', (e) => e.key === 'Escape' && close());

  async function save(f) {
    close();
    const model = current();
    if (!model) return;
    const file = `${model.name}.${f.ext}`;
    if (f.kind === 'mech') return download(file, model.text, f.type);
    try {
      download(file, zip(await bundle(f.kind, model, generate)), f.type);
    } catch (e) {
      report(`${file} was not generated — ${describe(e)}`);
    }
  }

  /** Why the button is disabled for `model` (a sentence), or null. */
  function refusal(model) {
    if (!model) return 'No model is open.';
    if (model.engine === 'xpbd') return 'An XPBD scene has no generated code: the XPBD engine runs its text as it is.';
    return null;
  }

  function update() {
    const model = current();
    const why = refusal(model);
    button.disabled = Boolean(why);
    button.title = why ?? "Download the model's .mech text, its generated C or its WebAssembly module";
    if (why) close();
    FILES.forEach((f, i) => {
      const item = items[i];
      item.textContent = `${model?.name ?? 'model'}.${f.ext}`;
      item.disabled = f.kind !== 'mech' && !codegen;
      item.title = item.disabled ? 'This build has no code generator in the page.' : f.what;
    });
  }

  return {
    update,
    setAvailable(on) {
      codegen = on;
      update();
    },
    /** Test hooks: the button's state and each item's. */
    hooks: {
      downloads: () => ({
        enabled: !button.disabled,
        title: button.title,
        items: items.map((item) => ({ kind: item.dataset.kind, name: item.textContent, enabled: !item.disabled, title: item.title })),
      }),
    },
  };
}
