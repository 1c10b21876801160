// model-store.js — the files of the user's models (a dropped folder's or zip's: included MJCF, OBJ and STL meshes,
// as { 'relative/path': Uint8Array }) kept in IndexedDB, one record per model of my-models.js under its name, so
// a dropped robot reopens with its meshes after a reload. localStorage keeps the model's text (my-models.js); its
// few megabytes would not hold meshes. Every call resolves or rejects, never blocks: a refused write (the
// storage quota, private browsing) is said in a toast, and the model's files stay as long as the page.
import { toast } from './status.js';

const DB = 'mech';
const STORE = 'model-files';

let opening = null;

/** The database, opened (and made, the first time) once per page. */
function db() {
  opening ??= new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) {
      reject(new Error('this browser keeps no IndexedDB'));
      return;
    }
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('the page is open in another tab with an older version'));
  });
  opening.catch(() => {
    opening = null; // tried again next time
  });
  return opening;
}

/** Runs `work(store)` in one transaction; resolves with the value of the request it returns, once committed. */
async function transact(mode, work) {
  const tx = (await db()).transaction(STORE, mode);
  const req = work(tx.objectStore(STORE));
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(req?.result);
    tx.onabort = () => reject(tx.error ?? new Error('the transaction was aborted'));
    tx.onerror = () => reject(tx.error);
  });
}

function put(name, files) {
  return transact('readwrite', (s) => s.put({ files }, name));
}

function forget(name) {
  return transact('readwrite', (s) => s.delete(name));
}

/** A byte count as people read it: 3.2 MB, 640 kB. */
const size = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} kB`);

const reason = (e) => (e?.name === 'QuotaExceededError' ? 'the browser\'s storage for this page is full' : e?.message ?? String(e));

/**
 * Keeps `files` for the user's model `name` (none: forgets any). Resolves null when kept, else why not (the
 * browser refused them: the model stays open, and after a reload opens without its meshes) for a toast.
 */
export function keepMineFiles(name, files) {
  if (!files || !Object.keys(files).length) return forget(name).then(() => null, () => null); // nothing lost
  return put(name, files).then(() => null, (e) => {
    const bytes = Object.values(files).reduce((n, b) => n + b.length, 0);
    return `The files of ${name} (${size(bytes)}) were not kept for after a reload: ${reason(e)}. They stay until the page is closed.`;
  });
}

/** The files kept for the user's model `name`, or null (none, or storage unavailable: a toast says so). */
export function keptFiles(name) {
  return transact('readonly', (s) => s.get(name)).then((record) => record?.files ?? null, (e) => {
    toast(`The files of ${name} could not be read back: ${reason(e)}. It opens without its meshes.`);
    return null;
  });
}

export function forgetMineFiles(name) {
  return forget(name).catch((e) => toast(`The files of ${name} may still be stored: ${reason(e)}`));
}

/** The files kept for `from` kept for `to` instead (a rename). */
export function moveMineFiles(from, to) {
  return transact('readwrite', (s) => {
    const req = s.get(from);
    req.onsuccess = () => {
      if (!req.result) return;
      s.put(req.result, to);
      s.delete(from);
    };
    return null;
  }).catch((e) => toast(`The files of ${from} did not follow its new name: ${reason(e)}`));
}

/**
 * Forgets the files of every model not named in `names` (one deleted in another tab, or whose text's storage
 * was cleared). Quiet when storage is unavailable: the drop that would need it says so.
 */
export function pruneMineFiles(names) {
  const keep = new Set(names);
  return transact('readwrite', (s) => {
    const req = s.getAllKeys();
    req.onsuccess = () => {
      for (const k of req.result) if (!keep.has(k)) s.delete(k);
    };
    return null;
  }).catch(() => {});
}
