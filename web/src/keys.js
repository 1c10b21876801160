// keys.js — the page's keyboard shortcuts, the help overlay that lists them, and the one-line hint shown on a
// first visit. Shortcuts are ignored while typing (the editor, a text field, a list) and with Ctrl, ⌘ or Alt held.
import { loadSetting, saveSetting } from './storage.js';

const $ = (id) => document.getElementById(id);

/** What the help overlay lists: [keys, what they do]. */
const SHORTCUTS = [
  ['Space', 'play / pause'],
  ['R', 'reset to the initial state'],
  ['.', 'forward one frame on the time line; at its end, one step (dt)'],
  [',', 'step back: one frame back on the time line'],
  ['F', 'fit the view to the model'],
  ['C', 'contacts: a marker at each contact point and an arrow for its force (normal and friction)'],
  ['W / S', 'held: throttle forward / back (a tracked vehicle with a drive sprocket on each side, or a vehicle on tires)'],
  ['A / D', 'held: steer left / right'],
  ['?', 'this help'],
  ['Esc', 'close it'],
  ['Ctrl/⌘ + Enter', 'in the editor: reload the model from its text'],
];
/** A key (lower case) → its action in installKeys' `actions`, or 'help'. */
const KEYS = { ' ': 'play', r: 'reset', '.': 'step', ',': 'back', f: 'fit', c: 'contacts', '?': 'help' };
/** The driving keys (lower case) → [throttle, steer] while held; held keys add up (W + A: forward, turning left). */
const DRIVE_KEYS = { w: [1, 0], s: [-1, 0], a: [0, 1], d: [0, -1] };

const typing = (target) => target.closest?.('.cm-editor, input, select, textarea, [contenteditable]');

/**
 * Listens for the shortcuts; `actions` maps play, reset, step, back, fit and contacts to functions, and drive to
 * (throttle, steer) => boolean (false: the model has nothing to drive), called as driving keys go down and up. The help overlay
 * (#help, its list #help-keys, #help-close, and #help-button to open it) and the first-visit hint (#hint,
 * #hint-close) are in index.html.
 */
export function installKeys(actions) {
  const help = $('help');
  $('help-keys').replaceChildren(
    ...SHORTCUTS.map(([keys, what]) => {
      const row = document.createElement('tr');
      const k = document.createElement('td');
      k.append(...keys.split(' + ').flatMap((key, i) => {
        const kbd = document.createElement('kbd');
        kbd.textContent = key;
        return i ? [' + ', kbd] : [kbd];
      }));
      const d = document.createElement('td');
      d.textContent = what;
      row.append(k, d);
      return row;
    }),
  );
  // A modal dialog: focus moves into it, Tab stays inside, and closing it returns focus where it was.
  let returnFocus = null;
  const setHelp = (open) => {
    if (open === !help.hidden) return;
    help.hidden = !open;
    if (open) {
      hideHint();
      returnFocus = document.activeElement;
      $('help-close').focus();
    } else {
      returnFocus?.focus?.();
      returnFocus = null;
    }
  };
  help.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const focusable = [...help.querySelectorAll('a[href], button')];
    const [first, last] = [focusable[0], focusable.at(-1)];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });
  $('help-button').addEventListener('click', () => setHelp(help.hidden));
  $('help-close').addEventListener('click', () => setHelp(false));
  help.addEventListener('click', (e) => e.target === help && setHelp(false)); // outside the card

  // The hint: shown once, on the first visit; remembered as soon as it is shown.
  const hint = $('hint');
  function hideHint() {
    hint.hidden = true;
  }
  $('hint-close').addEventListener('click', hideHint);
  if (loadSetting('hint') === null) {
    hint.hidden = false;
    saveSetting('hint', 'seen');
  }

  // Driving keys held down: the throttle and steer they add up to, sent as they change; all let go when the
  // page loses the keyboard (a key released elsewhere sends no keyup here).
  const held = new Set();
  const sendDrive = () => {
    let throttle = 0, steer = 0;
    for (const k of held) {
      throttle += DRIVE_KEYS[k][0];
      steer += DRIVE_KEYS[k][1];
    }
    return actions.drive?.(throttle, steer) ?? false;
  };
  document.addEventListener('keyup', (e) => {
    if (held.delete(e.key.toLowerCase())) sendDrive();
  });
  window.addEventListener('blur', () => {
    if (!held.size) return;
    held.clear();
    sendDrive();
  });

  document.addEventListener('keydown', (e) => {
    const drive = e.key.length === 1 && DRIVE_KEYS[e.key.toLowerCase()];
    if (drive && !(e.ctrlKey || e.metaKey || e.altKey || typing(e.target))) {
      const k = e.key.toLowerCase();
      if (held.has(k)) {
        e.preventDefault(); // auto-repeat: held already
        return;
      }
      held.add(k);
      if (sendDrive()) {
        e.preventDefault();
        hideHint();
      } else {
        held.delete(k);
      }
      return;
    }
    if (e.key === 'Escape' && !help.hidden) {
      setHelp(false);
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    const name = KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (!name) return;
    // Space on a focused button presses it (its own action): only elsewhere is it play / pause.
    if (name === 'play' && e.target.closest?.('button')) return;
    e.preventDefault();
    hideHint();
    if (name === 'help') setHelp(help.hidden);
    else actions[name]();
  });
}
