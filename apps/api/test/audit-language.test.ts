import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { startFixtureSite } from './fixture-site.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * An audit of a page in French, fixed with the real offline engine (ADR 071): every suggestion is in
 * the page's language (the French caption's words, text read from the image) or a request for a
 * person's words, never an English sentence.
 */
const page = `<!doctype html><html lang="fr"><head><title>Jour de lancement</title></head><body>
  <h1>Jour de lancement</h1>
  <figure><img src="/img/rocket.jpg"><figcaption>Décollage de la fusée depuis le pas de tir</figcaption></figure>
  <p>Nous avons pris le petit déjeuner avant le départ. <img src="/img/coffee.jpg" alt="IMG_2041.jpg"></p>
  <img src="/img/camera.jpg">
</body></html>`;
/** Words of the offline engine's English sentences about these photographs. */
const englishPhrase = /\b(?:photograph|picture|image|rocket|launch|coffee|camera|cup|tones?|with|the|of)\b/i;

type Image = {
  src: string;
  verdict: string;
  suggestion: string | null;
  suggestionEvidence: { needsWords: boolean; needsWordsReason: string | null } | null;
};

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let base = '';
let t: TestApp;
let owner: TestUser;

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  site = await startFixtureSite(page);
  base = site.base;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', ALT_TEXT_ENGINE: 'offline' } });
  owner = await createUser(t, 10);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  await site?.close();
});

describe('an audit of a French page', () => {
  it('suggests French words or asks for words, never English', async () => {
    const started = await api('POST', '/audits', { url: `${base}/`, scope: 'page' });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json() as { id: string };
    const audit = await waitFor(async () => {
      const answer = (await api('GET', `/audits/${id}`)).json();
      return answer.status === 'completed' || answer.status === 'failed' ? answer : null;
    }, 60_000);
    expect(audit.status, JSON.stringify(audit)).toBe('completed');

    const fixed = await api('POST', `/audits/${id}/fix`, {});
    expect(fixed.statusCode, fixed.body).toBe(202);
    const images = await waitFor(async () => {
      const items = (await api('GET', `/audits/${id}/images?pageSize=50`)).json().items as Image[];
      const failing = items.filter((image) => image.verdict === 'fail');
      return failing.length > 0 && failing.every((image) => image.suggestionEvidence) ? failing : null;
    }, 90_000);

    expect(images.map((image) => path.basename(image.src)).sort()).toEqual([
      'camera.jpg',
      'coffee.jpg',
      'rocket.jpg',
    ]);
    for (const image of images) {
      const suggestion = image.suggestion ?? '';
      if (image.suggestionEvidence?.needsWords) {
        expect(suggestion, image.src).toBe('');
        expect(image.suggestionEvidence.needsWordsReason, image.src).toEqual(expect.any(String));
      } else {
        expect(suggestion, image.src).not.toBe('');
        expect(suggestion, image.src).not.toMatch(englishPhrase);
      }
    }
    // The picture with nothing around it asks for words; the captioned one says the caption's French.
    const camera = images.find((image) => image.src.endsWith('/camera.jpg'));
    expect(camera?.suggestionEvidence?.needsWords).toBe(true);
    const rocket = images.find((image) => image.src.endsWith('/rocket.jpg'));
    if (!rocket?.suggestionEvidence?.needsWords) expect(rocket?.suggestion).toMatch(/fusée/i);
  }, 120_000);
});
