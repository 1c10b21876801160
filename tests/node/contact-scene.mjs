// contact-scene.mjs — the box scene of contact.test.mjs, imported by the test and by the second process it starts.
import { createHash } from 'node:crypto';

import { openModel } from '../../wasm/index.mjs';

export const BOX = `body box
  parent base
  joint floating
  mass 3
  inertia 0.02 0.02 0.02
  q0 0.2 -0.1 0.3 x 20
  shape box 0.4 0.4 0.2
end
`;

/** The state of a tilted box dropped on the floor, after 2 s on `backend`, as a SHA-256 of q and qd. */
export async function boxHash(backend = 'runtime') {
  const sim = await openModel({ text: BOX, name: 'box' }, { backend });
  try {
    sim.setFloor(true);
    sim.step(1e-3, 2000);
    return createHash('sha256').update(new Uint8Array(Float64Array.from([...sim.q, ...sim.qd]).buffer)).digest('hex');
  } finally {
    sim.dispose();
  }
}
