// scene.js — renderer, z-up camera with orbit controls, lights with shadows, ground grid and world frame.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

THREE.Object3D.DEFAULT_UP.set(0, 0, 1); // the models' world is z-up (gravity 0 0 -9.81)

const BACKGROUND = 0x11151c;

// Rendering levels while animating: [pixel-ratio factor, shadows]. A slow renderer (software WebGL, a
// weak GPU) steps down until the frame rate holds, and climbs back when there is headroom.
const LEVELS = [[1, true], [0.75, true], [0.75, false], [0.5, false], [0.35, false]];

// Software rasterizers pay dearly for multisampling; ask a throwaway context which renderer this is.
function softwareRenderer() {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : '';
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(name);
}

export function createScene(container) {
  const renderer = new THREE.WebGLRenderer({ antialias: !softwareRenderer(), powerPreference: 'high-performance' });
  const basePixelRatio = Math.min(window.devicePixelRatio, 2);
  renderer.setPixelRatio(basePixelRatio);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  container.append(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(BACKGROUND);
  scene.fog = new THREE.Fog(BACKGROUND, 10, 60);

  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 200);
  camera.position.set(2.5, -3.5, 2);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = true;
  controls.dampingFactor = 0.12;

  scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x202530, 1.4));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.castShadow = true;
  sun.shadow.mapSize.set(1024, 1024);
  sun.shadow.bias = -0.0004;
  sun.shadow.normalBias = 0.01;
  scene.add(sun, sun.target);

  const floor = new THREE.Group();
  const ground = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.ShadowMaterial({ opacity: 0.35 }));
  ground.receiveShadow = true;
  floor.add(ground);
  scene.add(floor);
  let grid = null;

  const world = new THREE.AxesHelper(1);
  world.material.depthTest = false;
  world.renderOrder = 9;
  scene.add(world);

  let model = null;
  let followed = null; // last followed point (free-floating models)
  let shadowsWanted = true;
  let level = 0;
  let dirty = true;
  let good = 0;        // consecutive fast windows
  let fellFrom = [];   // per level: how often animation had to leave it for being too slow
  let playLevel = 0;   // the level animation last ran at
  let animating = false;

  function setLevel(l) {
    level = l;
    const [scale, shadows] = LEVELS[l];
    renderer.setPixelRatio(basePixelRatio * scale);
    resize();
    sun.castShadow = ground.visible = shadowsWanted && shadows; // the ground only catches shadows
  }

  function resize() {
    const { clientWidth: w, clientHeight: h } = container;
    if (!w || !h) return;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    dirty = true;
  }
  new ResizeObserver(resize).observe(container);
  resize();

  // Fits grid, ground, shadow camera and fog to a model of this extent; `reach` bounds where it can move.
  function fitEnvironment(box) {
    const size = box.getSize(new THREE.Vector3());
    const centre = box.getCenter(new THREE.Vector3());
    const reach = Math.max(box.max.length(), box.min.length(), size.length() / 2, 0.2);
    const z = box.min.z < -1e-6 ? -reach * 1.05 : Math.min(0, box.min.z); // something hangs: floor below its reach
    const span = 10 ** Math.ceil(Math.log10(reach * 4));
    if (grid) {
      floor.remove(grid);
      grid.geometry.dispose();
    }
    grid = new THREE.GridHelper(span, 20, 0x3a4558, 0x232a36);
    grid.rotation.x = Math.PI / 2;
    floor.add(grid);
    floor.position.set(0, 0, z);
    ground.scale.set(span, span, 1);
    world.scale.setScalar(reach * 0.35);
    sun.position.set(centre.x + reach * 1.2, centre.y - reach * 0.8, z + reach * 3);
    sun.target.position.set(centre.x, centre.y, z);
    Object.assign(sun.shadow.camera, { left: -reach * 2, right: reach * 2, top: reach * 2, bottom: -reach * 2, near: 0.01, far: reach * 8 });
    sun.shadow.camera.updateProjectionMatrix();
    scene.fog.near = reach * 6;
    scene.fog.far = reach * 30;
    camera.near = reach / 500;
    camera.far = reach * 60;
    camera.updateProjectionMatrix();
    controls.maxDistance = reach * 20;
  }

  // Renders and reads the canvas back, downscaled, as luminance (the drawing buffer is current right after).
  function luminance() {
    controls.update();
    renderer.render(scene, camera);
    const src = renderer.domElement;
    const c = document.createElement('canvas');
    c.width = 200;
    c.height = Math.max(1, Math.round((200 * src.height) / src.width));
    const ctx = c.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(src, 0, 0, c.width, c.height);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    const y = new Float32Array(px.length / 4);
    for (let i = 0; i < y.length; i++) y[i] = 0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2];
    return y;
  }

  return {
    /** For picking and overlays (inspect.js). */
    camera,
    canvas: renderer.domElement,
    root: scene,
    /** Replaces the displayed model view (see model-view.js); null shows none. */
    setModel(view) {
      fellFrom = []; // another model: every level is worth another try
      if (model) {
        scene.remove(model.group);
        if (model.environment) scene.remove(model.environment);
        model.dispose();
      }
      model = view;
      // A model with its own ground (a terrain: track-view.js) shows it instead of the floor grid.
      floor.visible = !view?.environment;
      if (view) {
        scene.add(view.group);
        if (view.environment) scene.add(view.environment);
        fitEnvironment(view.bounds());
      }
      dirty = true;
    },
    /**
     * Points the camera at the model from a three-quarter view. A mechanism anchored to the world moves
     * within its reach of the origin, so the view leans halfway toward the origin and widens to most of
     * that reach while keeping the whole present pose in view; a free-floating one is simply centred.
     */
    frameModel() {
      const box = model.bounds();
      const centre = box.getCenter(new THREE.Vector3());
      const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
        new THREE.Vector3(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z));
      const reach = Math.max(...corners.map((c) => c.length()));
      if (model.anchored) centre.multiplyScalar(0.5);
      const pose = Math.max(...corners.map((c) => c.distanceTo(centre)));
      const r = model.anchored ? Math.max(pose, 0.6 * reach, 0.1) : Math.max(1.4 * pose, 0.1);
      const dist = (r / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2))) * 1.05;
      controls.target.copy(centre);
      camera.position.copy(centre).add(new THREE.Vector3(0.55, -0.75, 0.38).normalize().multiplyScalar(dist));
      controls.update();
      followed = null;
      dirty = true;
    },
    /** Moves camera and target with `point` (a free-floating model's root), from where it was last. */
    follow(point) {
      if (followed) {
        const d = new THREE.Vector3().subVectors(point, followed);
        camera.position.add(d);
        controls.target.add(d);
      }
      followed = point.clone();
    },
    /** Camera as [px, py, pz, tx, ty, tz]. */
    getCamera() {
      return [...camera.position.toArray(), ...controls.target.toArray()];
    },
    setCamera(c) {
      camera.position.set(c[0], c[1], c[2]);
      controls.target.set(c[3], c[4], c[5]);
      controls.update();
      followed = null;
      dirty = true;
    },
    setWorldFrame(v) {
      world.visible = v;
      dirty = true;
    },
    setShadows(v) {
      shadowsWanted = v;
      sun.castShadow = ground.visible = v && LEVELS[level][1];
      dirty = true;
    },
    /**
     * Adapts the rendering level to the measured frame rate while animating; `fps` null means idle, which
     * draws at full quality (still pictures are cheap) and remembers the animating level for the next
     * play. Returns the level, 0 = full.
     */
    adapt(fps) {
      if (fps === null) {
        animating = false;
        if (level) setLevel(0);
        return level;
      }
      if (!animating) {
        animating = true;
        good = 0;
        if (level !== playLevel) setLevel(playLevel);
      } else if (fps < 50 && level < LEVELS.length - 1) {
        fellFrom[level] = (fellFrom[level] ?? 0) + 1;
        setLevel(level + 1);
        good = 0;
      } else if (fps >= 58 && level > 0 && ++good >= 4 << Math.min(fellFrom[level - 1] ?? 0, 4)) {
        // Climb back after 4 fast windows, and after twice as many each time the level above proved too
        // slow (up to 64): a renderer at its limit no longer drops a frame every few seconds to re-probe.
        setLevel(level - 1);
        good = 0;
      }
      playLevel = level;
      return level;
    },
    /** Marks the picture stale: the next render() draws. */
    invalidate() {
      dirty = true;
    },
    /** Draws if anything changed (camera, model, settings) since the last draw; true when it drew. */
    render() {
      if (!controls.update() && !dirty) return false;
      dirty = false;
      renderer.render(scene, camera);
      return true;
    },
    /**
     * Canvas checks for tests: luminance mean and variance, and the fraction of pixels the model changes
     * (the scene rendered with and without it).
     */
    /** What the last draw cost the renderer: draw calls, triangles, the rendering level and pixel ratio. */
    renderStats() {
      const { calls, triangles } = renderer.info.render;
      return { calls, triangles, level, pixelRatio: renderer.getPixelRatio() };
    },
    pixelStats() {
      const shown = luminance();
      model.group.visible = false;
      const hidden = luminance();
      model.group.visible = true;
      dirty = true;
      let sum = 0, sum2 = 0, changed = 0;
      shown.forEach((y, i) => {
        sum += y;
        sum2 += y * y;
        if (Math.abs(y - hidden[i]) > 8) changed++;
      });
      const mean = sum / shown.length;
      return { mean, variance: sum2 / shown.length - mean * mean, modelFraction: changed / shown.length };
    },
  };
}
