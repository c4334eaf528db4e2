import { parentPort } from 'node:worker_threads';
import type { DetectedFace, DetectedObject } from '../types.ts';
import { markIndex, type RecognisedMark, recogniseMark } from './marks.ts';
import type { OcrResult } from './ocr.ts';
import { OcrThread } from './ocr-thread.ts';
import { detect, loadVision } from './vision.ts';

/**
 * One offline-engine worker thread: loads the detector and OCR once, then answers requests
 * one at a time. Runs off the main thread so a 300 ms inference never blocks the API.
 */

export interface WorkerRequest {
  id: number;
  rgb: ArrayBuffer;
  width: number;
  height: number;
  png: ArrayBuffer;
  ocr: { minConfidence: number; timeoutMs: number };
  /** false: OCR only (the audit's pixel check, ADR 037); `rgb` may then be empty. */
  detect?: boolean;
  /** Match the image against the index of brands and pictograms (ADR 063); needs `rgb`. */
  marks?: boolean;
}

/** Asks the thread to end once its OCR thread is idle (see OcrThread.close). */
export interface WorkerClose {
  type: 'close';
}

export type WorkerResponse =
  | {
      id: number;
      ok: true;
      objects: DetectedObject[];
      faces: DetectedFace[];
      ocr: OcrResult;
      /** The brand or pictogram the image is, when the match is strong. */
      mark?: RecognisedMark;
      timingsMs: { detect: number; ocr: number; marks?: number };
    }
  | { id: number; ok: false; message: string }
  | { id: -1; ok: true; ready: true; loadMs: number }
  | { id: -1; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

const ocr = new OcrThread();
const started = performance.now();
// The mark index (~4.5 MB of masks) loads once per worker, with the models.
Promise.all([loadVision(), ocr.start(), Promise.resolve().then(markIndex)])
  .then(warmUp)
  .then(() =>
    port.postMessage({ id: -1, ok: true, ready: true, loadMs: Math.round(performance.now() - started) }),
  )
  .catch((error: unknown) => port.postMessage({ id: -1, ok: false, message: messageOf(error) }));

port.on('message', (request: WorkerRequest | WorkerClose) => {
  if ('type' in request) {
    void ocr.close().finally(() => process.exit(0));
    return;
  }
  void handle(request).then(
    (response) => port.postMessage(response),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: messageOf(error) }),
  );
});

async function handle(request: WorkerRequest): Promise<WorkerResponse> {
  const t0 = performance.now();
  // Detection runs here while the OCR thread reads the text, so the two overlap.
  const ocrPromise = ocr.read(Buffer.from(request.png), request.ocr).then((result) => ({
    result,
    ms: Math.round(performance.now() - t0),
  }));
  const vision =
    request.detect === false
      ? { objects: [], faces: [] }
      : await detect(new Uint8Array(request.rgb), request.width, request.height);
  const detectMs = Math.round(performance.now() - t0);
  const tMarks = performance.now();
  const mark = request.marks
    ? recogniseMark(new Uint8Array(request.rgb), request.width, request.height)
    : undefined;
  const marksMs = Math.round(performance.now() - tMarks);
  const read = await ocrPromise;
  return {
    id: request.id,
    ok: true,
    objects: vision.objects,
    faces: vision.faces,
    ocr: read.result,
    ...(mark ? { mark } : {}),
    timingsMs: { detect: detectMs, ocr: read.ms, ...(request.marks ? { marks: marksMs } : {}) },
  };
}

/** The first WASM inference compiles kernels (~0.6 s): pay it at start-up, not on a user's image. */
async function warmUp(): Promise<void> {
  const size = 64;
  const rgb = new Uint8Array(size * size * 3).fill(128);
  await detect(rgb, size, size);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
