// share-link.js — the page's link (share.js encodes it): "Copy link" puts the model, its text when edited, the
// sliders, the camera and the state shown into the address; a page opened from such a link starts from it; any
// edit or other model drops it from the address.
import { encodeShare, decodeShare, MAX_HASH } from './share.js';
import { page } from './page-state.js';
import { toast } from './status.js';

export function forgetLink() {
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

/**
 * The link the page was opened from: { shared } (decodeShare's object, or null without a link), or { problem }
 * (why it cannot be opened: not a link this page wrote, or a model this build does not ship), the link then
 * dropped from the address. `models`: listModels().
 */
export function openedLink(models) {
  try {
    const shared = decodeShare(location.hash);
    if (shared && shared.text === undefined && !models.some((m) => m.name === shared.model)) {
      throw new Error(`the link names the model "${shared.model}", which this build does not ship`);
    }
    return { shared, problem: null };
  } catch (e) {
    forgetLink();
    return { shared: null, problem: e.message };
  }
}

/**
 * The "Copy link" button `button`: the link of what the page shows, in the address bar and the clipboard.
 * `customGravity()`: the gravity sliders' value when moved from the model's own, else null.
 */
export function installShareButton(button, { editor, controls, scene, customGravity }) {
  button.addEventListener('click', async () => {
    if (!page.model) return;
    const text = editor.text;
    const { tau, act, brake } = controls.inputs();
    const own = controls.sceneValues(); // a scene's own sliders: the motor's rate, the ball's speed
    const f = page.info && page.lastFrame;
    const shown = f && { time: f.time, steps: f.steps, state: f.state };
    const link = {
      model: page.model,
      text: page.shipped !== null && text === page.shipped ? undefined : text,
      tau,
      act,
      brake: brake.length ? brake : undefined,
      gravity: customGravity() ?? undefined,
      camera: scene.getCamera(),
      dt: controls.settings.dt,
      timeScale: controls.settings.timeScale,
      scene: Object.keys(own).length ? own : undefined,
      floor: controls.settings.floor,
    };
    let hash = encodeShare({ ...link, shown });
    if (hash.length > MAX_HASH) hash = encodeShare(link); // the text alone, from the initial state
    if (hash.length > MAX_HASH) return toast('This model is too large to share as a link.');
    history.replaceState(null, '', hash);
    try {
      await navigator.clipboard.writeText(location.href);
      toast('Link copied to the clipboard');
    } catch {
      toast('Link ready in the address bar');
    }
  });
}
