import { parentPort, workerData } from 'node:worker_threads';

/** A stand-in for the model worker: ready at once, crashes on a 1-pixel-wide image, or fails to load. */
const port = parentPort;
if (workerData?.failToLoad) {
  port?.postMessage({ id: -1, ok: false, message: 'no models here' });
} else {
  port?.postMessage({ id: -1, ok: true, ready: true, loadMs: 1 });
}
port?.on('message', (request: { id: number; width: number; type?: 'close' }) => {
  if (request.type === 'close') process.exit(0);
  if (request.width === 1) process.exit(3);
  port.postMessage({
    id: request.id,
    ok: true,
    objects: [],
    faces: [],
    ocr: { text: '', confidence: 0, words: 0, numbers: 0, timedOut: false },
    timingsMs: { detect: 0, ocr: 0 },
  });
});
