import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DetectedFace, DetectedObject } from '../types.ts';

/**
 * Object and face detection with @vladmandic/human on the tfjs WASM backend (no native
 * TensorFlow can be installed here). Models ship inside the npm package; they are read from
 * disk through a file:// load handler because tfjs in Node only knows how to fetch http(s).
 */

const require = createRequire(import.meta.url);

// Minimal shapes of the parts of tfjs and Human we use (their bundled types pull in DOM types).
interface TfTensor {
  dispose(): void;
}
interface TfLike {
  tensor4d(values: Int32Array, shape: [number, number, number, number], dtype: 'int32'): TfTensor;
  getBackend(): string;
  io: {
    registerLoadRouter(router: (url: string | string[]) => unknown): void;
    getModelArtifactsForJSON(
      json: unknown,
      loadWeights: (manifest: WeightsManifest) => Promise<[unknown[], ArrayBuffer]>,
    ): Promise<unknown>;
  };
}
type WeightsManifest = Array<{ paths: string[]; weights: unknown[] }>;
interface HumanResult {
  object: Array<{ label: string; score: number; box: [number, number, number, number] }>;
  face: Array<{
    score: number;
    boxScore?: number;
    box: [number, number, number, number];
    emotion?: Array<{ score: number; emotion: string }>;
  }>;
}
interface HumanLike {
  load(): Promise<void>;
  detect(input: TfTensor): Promise<HumanResult>;
}

export interface VisionResult {
  objects: DetectedObject[];
  faces: DetectedFace[];
}

export const visionModelName = 'human-3.3/centernet+blazeface';

let loaded: Promise<{ human: HumanLike; tf: TfLike }> | undefined;

/** Loads the models once per thread; later calls reuse the same warm instance. */
export function loadVision(): Promise<{ human: HumanLike; tf: TfLike }> {
  loaded ??= createVision();
  return loaded;
}

async function createVision(): Promise<{ human: HumanLike; tf: TfLike }> {
  const tf = require('@tensorflow/tfjs-core') as TfLike;
  registerFileLoader(tf);
  // The package's "exports" map does not expose the wasm build, so resolve it next to the main entry.
  const humanDist = dirname(require.resolve('@vladmandic/human'));
  const { Human } = require(join(humanDist, 'human.node-wasm.js')) as {
    Human: new (config: unknown) => HumanLike;
  };
  const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  const human = new Human({
    backend: 'wasm',
    wasmPath: `${pathToFileURL(wasmDir).href}/`,
    modelBasePath: `${pathToFileURL(join(humanDist, '..', 'models')).href}/`,
    debug: false,
    async: true,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 10, minConfidence: 0.3 },
      mesh: { enabled: false },
      iris: { enabled: false },
      // description = age/gender/embedding: never loaded, never guessed.
      description: { enabled: false },
      emotion: { enabled: true, minConfidence: 0.3 },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: { enabled: true, minConfidence: 0.25, maxDetected: 20 },
  });
  await human.load();
  return { human, tf };
}

let loaderRegistered = false;

function registerFileLoader(tf: TfLike): void {
  if (loaderRegistered) return;
  loaderRegistered = true;
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    return {
      load: async () => {
        const json = JSON.parse(await readFile(fileURLToPath(url), 'utf8')) as unknown;
        return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
          const specs: unknown[] = [];
          const parts: Buffer[] = [];
          for (const group of manifest) {
            for (const path of group.paths) parts.push(await readFile(fileURLToPath(new URL(path, url))));
            specs.push(...group.weights);
          }
          const all = Buffer.concat(parts);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  });
}

export async function detect(rgb: Uint8Array, width: number, height: number): Promise<VisionResult> {
  const { human, tf } = await loadVision();
  const tensor = tf.tensor4d(Int32Array.from(rgb), [1, height, width, 3], 'int32');
  try {
    const result = await human.detect(tensor);
    const imageArea = width * height;
    return {
      objects: result.object.map((o) => ({
        label: o.label,
        score: round(o.score),
        area: round(boxArea(o.box, width, height) / imageArea),
        box: normaliseBox(o.box, width, height),
      })),
      faces: result.face.map((f) => {
        const top = [...(f.emotion ?? [])].sort((a, b) => b.score - a.score)[0];
        const face: DetectedFace = {
          score: round(f.boxScore ?? f.score),
          area: round(boxArea(f.box, width, height) / imageArea),
          box: normaliseBox(f.box, width, height),
        };
        if (top && top.score >= 0.6) face.expression = top.emotion;
        return face;
      }),
    };
  } finally {
    tensor.dispose();
  }
}

function boxArea(box: [number, number, number, number], width: number, height: number): number {
  const [x, y, w, h] = box;
  const x0 = Math.max(0, x);
  const y0 = Math.max(0, y);
  const x1 = Math.min(width, x + w);
  const y1 = Math.min(height, y + h);
  return Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
}

function normaliseBox(
  box: [number, number, number, number],
  width: number,
  height: number,
): [number, number, number, number] {
  const [x, y, w, h] = box;
  return [round(x / width), round(y / height), round(w / width), round(h / height)];
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
