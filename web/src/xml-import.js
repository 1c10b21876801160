// xml-import.js — MJCF and URDF on the page (docs/import.md): pasted into the editor, checked by the importer as it
// is typed and imported into .mech text on reload; dropped as a file, imported before it opens. The importer
// (wasm/import/ with its XML parser, a chunk of its own) is loaded the first time XML is seen.
import { toastMore } from './status.js';

const XML_MODEL = /^\s*(<\?xml[\s\S]*?\?>\s*)?(<!--[\s\S]*?-->\s*)*<(mujoco|robot)[\s>/]/;
let importer = null;

/** `text` is MJCF or URDF rather than .mech. */
export const isXmlModel = (text) => XML_MODEL.test(text);

function loadImporter() {
  importer ??= import('../../wasm/import/index.mjs');
  return importer;
}

/** An ImportError as the editor shows errors: the place apart from the message. */
export function importError(e) {
  const line = Number.isInteger(e?.line) && e.line > 0 ? e.line : 1;
  const column = Number.isInteger(e?.column) && e.column > 0 ? e.column : 1;
  const message = String(e?.message ?? e).replace(/^[^\n]*?:\d+:\d+: /, '');
  return { name: 'ImportError', message, line, column };
}

/**
 * MJCF or URDF text imported into { text, warnings } (.mech text); throws ImportError. `file` names it in messages;
 * `files` ({ 'relative/path': Uint8Array }): what it includes and its meshes.
 */
export async function importXml(text, file, files) {
  return (await loadImporter()).importModel(text, { name: file, files });
}

/** Null when MJCF or URDF `text` imports (with `files`, as importXml), else why not, as importError gives it. */
export async function xmlError(text, file, files) {
  try {
    (await loadImporter()).importModel(text, { name: file, files });
    return null;
  } catch (e) {
    return importError(e);
  }
}

/** The toast after an import: how many warnings, which head the .mech text (after the open's own toasts, if shown). */
export function announceImport({ warnings }) {
  const n = warnings.length;
  toastMore(`Imported ${n ? `with ${n} warning${n === 1 ? '' : 's'}, listed at the top of the text` : 'with no warnings'}`);
}
