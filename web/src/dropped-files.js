// dropped-files.js — an .xml (MJCF), .urdf or .mech file dropped anywhere on the page opens as a model of the
// user's (my-models.js) named after the file. It is read, imported and parsed before anything changes: a file that is not text, is over the page's
// text cap (share.js's MAX_TEXT), or fails to import or parse leaves the model shown running and says why in the
// banner. A folder, a zip of one (unzip.js) or several files may be dropped: its one model file (an MJCF file no
// other one includes; among several, one named scene.xml, as MuJoCo Menagerie names a robot's scene) opens with
// the files beside it, the files it includes and its OBJ and STL meshes (mesh-assets.js), kept with it across
// reloads (model-store.js).
import { MAX_TEXT } from './share.js';
import { banner, describeError } from './status.js';
import { importError, importXml, announceImport } from './xml-import.js';
import { modelName } from './my-models.js';

const DROPPABLE = /\.(xml|urdf|mech)$/i;
const ASSET = /\.(xml|obj|stl)$/i; // what a model file may name: included MJCF, meshes
const ZIP = /\.zip$/i;
const MAX_ASSETS = 256 << 20; // bytes of the files beside a dropped model (of a zip's files, inflated)

/**
 * The files of a drop as [{ path, file }], folders walked (their paths from the drop's root); read from the
 * event's items at once, as the browser allows only while the event is dispatched.
 */
function droppedEntries(dataTransfer) {
  const entries = [...(dataTransfer?.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.some((e) => e.isDirectory)) return Promise.resolve([...(dataTransfer?.files ?? [])].map((file) => ({ path: file.name, file })));
  const out = [];
  const walk = async (entry) => {
    if (entry.isFile) {
      out.push({ path: entry.fullPath.replace(/^\/+/, ''), file: await new Promise((ok, no) => { entry.file(ok, no); }) });
      return;
    }
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((ok, no) => { reader.readEntries(ok, no); });
      if (!batch.length) break;
      for (const e of batch) await walk(e);
    }
  };
  return Promise.all(entries.map(walk)).then(() => out);
}

/** A zip's model files and assets, not the hidden ones macOS's archiver adds (__MACOSX/, ._name). */
const wantedInZip = (path) => (DROPPABLE.test(path) || ASSET.test(path)) && !/(^|\/)(__MACOSX\/|\.[^./])/.test(path);

/**
 * The drop's files with each zip among them replaced by its model files and assets (their paths inside it), or
 * { why } a zip was not read.
 */
async function withZipsOpened(list) {
  if (!list.some((x) => ZIP.test(x.path))) return { list };
  const { unzipFiles } = await import('./unzip.js');
  const out = [];
  for (const x of list) {
    if (!ZIP.test(x.path)) {
      out.push(x);
      continue;
    }
    if (x.file.size > MAX_ASSETS) return { why: `${x.path} was not opened: it is over ${MAX_ASSETS >> 20} MB` };
    const read = await unzipFiles(new Uint8Array(await x.file.arrayBuffer()), wantedInZip, MAX_ASSETS);
    if (read.why) return { why: `${x.path} was not opened: ${read.why}` };
    for (const f of read.files) out.push({ path: f.path, file: new File([f.bytes], f.path.replace(/^.*\//, '')) });
  }
  return { list: out };
}

/**
 * The model file of a drop: the only one, or among several MJCF files the one no other includes (several: the one
 * named scene.xml); else { why }.
 */
async function mainFile(list) {
  const models = list.filter((x) => DROPPABLE.test(x.path));
  if (models.length === 1) return { main: models[0] };
  if (!models.length) {
    const what = list.length === 1 ? list[0].path : 'The drop';
    return { why: `${what} was not opened: drop an .xml (MJCF), .urdf or .mech file, or a folder or zip holding one` };
  }
  const included = new Set();
  for (const x of models.filter((m) => /\.xml$/i.test(m.path) && m.file.size <= MAX_TEXT)) {
    const text = await x.file.text();
    for (const [, f] of text.matchAll(/<include\s+file\s*=\s*"([^"]*)"/g)) included.add(f.replace(/^.*[\\/]/, ''));
  }
  const roots = models.filter((m) => !included.has(m.path.replace(/^.*\//, '')));
  if (roots.length === 1) return { main: roots[0] };
  const scenes = roots.filter((m) => /(^|\/)scene\.xml$/i.test(m.path));
  if (scenes.length === 1) return { main: scenes[0] };
  return { why: `The drop was not opened: it holds ${roots.length} model files (${roots.map((m) => m.path).join(', ')}); drop one of them with the files it names` };
}

/**
 * The files beside `main` as { 'relative/path': Uint8Array }, or { why }: an MJCF file's folder and below; for a
 * URDF file every file of the drop (a ROS package keeps its meshes in a folder beside the URDF's, and the importer
 * finds a URDF's mesh by its name, as MuJoCo does).
 */
async function filesBeside(main, list) {
  const dir = main.path.includes('/') && !/\.urdf$/i.test(main.path) ? main.path.replace(/\/[^/]*$/, '/') : '';
  const files = {};
  let total = 0;
  for (const x of list) {
    if (x === main || !x.path.startsWith(dir) || !ASSET.test(x.path)) continue;
    total += x.file.size;
    if (total > MAX_ASSETS) return { why: `the files beside it are too large (over ${MAX_ASSETS >> 20} MB)` };
    files[x.path.slice(dir.length)] = new Uint8Array(await x.file.arrayBuffer());
  }
  return { files };
}

/** A dropped file's bytes as { text }, or { why } they are not a model's text. */
function decodeText(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { why: 'it is not UTF-8 text' };
  }
  return text.includes('\0') ? { why: 'it is not text (it holds NUL characters)' } : { text };
}

/** The model name a file opens under: its base name in .mech's name characters. */
const droppedName = (file) => modelName(file.replace(DROPPABLE, ''));

/**
 * Listens for files dropped on the window; `engine` checks their text, `session` opens it. Returns `handled()`,
 * the number of drops handled so far, opened or refused (the browser tests wait on it).
 */
export function installDrop({ engine, session }) {
  async function openDropped(dropped) {
    const refuse = (why) => banner(`${why}\nThe model shown keeps running.`);
    const unzipped = await withZipsOpened(dropped);
    if (unzipped.why) return refuse(`${unzipped.why}.`);
    const { list } = unzipped;
    const pickedMain = await mainFile(list);
    if (pickedMain.why) return refuse(`${pickedMain.why}.`);
    const { file } = pickedMain.main;
    const beside = await filesBeside(pickedMain.main, list);
    if (beside.why) return refuse(`${file.name} was not opened: ${beside.why}.`);
    if (file.size > MAX_TEXT) return refuse(`${file.name} was not opened: it is too large (${file.size} bytes; the limit is ${MAX_TEXT}).`);
    let bytes;
    try {
      bytes = await file.arrayBuffer();
    } catch (e) {
      return refuse(`${file.name} could not be read: ${e.message}`);
    }
    const read = decodeText(bytes);
    if (read.why) return refuse(`${file.name} was not opened: ${read.why}.`);
    const name = droppedName(file.name);
    let { text } = read;
    let out = null;
    if (!/\.mech$/i.test(file.name)) {
      try {
        out = await importXml(text, file.name, beside.files);
      } catch (e) {
        return refuse(`${file.name} did not import — ${describeError(importError(e))}`);
      }
      text = out.text;
    }
    const err = await engine.check(text, name);
    if (err) return refuse(`${file.name} did not load — ${describeError(err)}`);
    if (!(await session.openMine(name, text, beside.files))) return;
    if (out) announceImport(out);
  }

  let drops = 0;
  window.addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  // Capturing, so that a file dropped on the editor opens as a model rather than being pasted into the text.
  window.addEventListener('drop', (e) => {
    if (!e.dataTransfer?.files?.length) return;
    e.preventDefault();
    e.stopPropagation();
    droppedEntries(e.dataTransfer)
      .then(openDropped)
      .catch((err) => banner(`The dropped file was not opened: ${describeError(err)}\nThe model shown keeps running.`))
      .finally(() => drops++);
  }, true);
  return () => drops;
}
