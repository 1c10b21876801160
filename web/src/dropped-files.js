// dropped-files.js — an .xml (MJCF), .urdf or .mech file dropped anywhere on the page opens as a model of the
// user's (my-models.js) named after the file. It is read, imported and parsed before anything changes: a file that is not text, is over the page's
// text cap (share.js's MAX_TEXT), or fails to import or parse leaves the model shown running and says why in the
// banner.
import { MAX_TEXT } from './share.js';
import { banner, describeError } from './status.js';
import { importError, importXml, announceImport } from './xml-import.js';
import { modelName } from './my-models.js';

const DROPPABLE = /\.(xml|urdf|mech)$/i;

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
  async function openDropped(files) {
    const refuse = (why) => banner(`${why}\nThe model shown keeps running.`);
    if (files.length !== 1) return refuse(`Drop one model file at a time (${files.length} were dropped).`);
    const [file] = files;
    if (!DROPPABLE.test(file.name)) return refuse(`${file.name} was not opened: drop an .xml (MJCF), .urdf or .mech file.`);
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
        out = await importXml(text, file.name);
      } catch (e) {
        return refuse(`${file.name} did not import — ${describeError(importError(e))}`);
      }
      text = out.text;
    }
    const err = await engine.check(text, name);
    if (err) return refuse(`${file.name} did not load — ${describeError(err)}`);
    if (!(await session.openMine(name, text))) return;
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
    const files = [...(e.dataTransfer?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    e.stopPropagation();
    openDropped(files)
      .catch((err) => banner(`The dropped file was not opened: ${describeError(err)}\nThe model shown keeps running.`))
      .finally(() => drops++);
  }, true);
  return () => drops;
}
