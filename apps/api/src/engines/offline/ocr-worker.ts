import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { loadOcr, type OcrResult, readText } from './ocr.ts';

/**
 * The OCR's own thread inside an engine worker: onnxruntime-node runs inference synchronously on
 * the calling thread, so text is read here while the engine worker runs object detection.
 */

export type OcrThreadMessage = { type: 'read'; id: number; png: ArrayBuffer; minConfidence: number };

export type OcrThreadResponse =
  | { id: number; ok: true; result: OcrResult }
  | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('ocr-worker.ts must run in a worker thread');

// The first inference allocates the runtime's buffers: pay it at start-up, not on a user's image.
loadOcr()
  .then(async () => {
    const blank = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    await readText(blank, { minConfidence: 70, timeoutMs: 2 ** 31 - 1 });
  })
  .then(
    () => port.postMessage({ id: -1, ok: true }),
    (error: unknown) => port.postMessage({ id: -1, ok: false, message: messageOf(error) }),
  );

port.on('message', (request: OcrThreadMessage) => {
  // The caller keeps the time limit; a reading it gave up on still finishes here, unread.
  readText(Buffer.from(request.png), { minConfidence: request.minConfidence, timeoutMs: 2 ** 31 - 1 }).then(
    (result) => port.postMessage({ id: request.id, ok: true, result } satisfies OcrThreadResponse),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: messageOf(error) }),
  );
});

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
