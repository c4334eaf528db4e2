/**
 * WordPress benchmark: a throw-away WordPress (scripts/lib/wordpress.ts) with
 * BENCH_WP_MEDIA image attachments (500) and one post per 5 of them (each image used once in a
 * post), then through the API: connect, import (timed), fix and accept every failing image with a
 * fixed-answer engine (not timed: the engine is not what is measured), and publish (timed): every
 * attachment's alt_text and every use in the posts. Prints the seconds and the load average; with
 * `--json` the last line is one JSON object.
 *   npm run bench:wordpress
 */
import { loadavg } from 'node:os';
import sharp from 'sharp';
import { printBenchJson, round } from '../../../scripts/lib/bench-json.ts';
import { createPost, imageBlock, startWordPress, uploadMedia } from '../../../scripts/lib/wordpress.ts';
import { createUser } from '../test/billing-helpers.ts';
import { createTestEngine } from '../test/generation-helpers.ts';
import { buildTestApp, waitFor } from '../test/helper.ts';

const mediaCount = Number(process.env.BENCH_WP_MEDIA ?? 500);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const seconds = (since: number) => (performance.now() - since) / 1000;

const site = await startWordPress();
const t = await buildTestApp({
  env: {
    FETCH_ALLOW_PRIVATE: 'true',
    GENERATION_RETRY_DELAY_MS: '10',
    WORDPRESS_REQUESTS_PER_MINUTE: '6000',
  },
  engine: createTestEngine(),
});
try {
  const seedStarted = performance.now();
  const bytes = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#406080' } })
    .png()
    .toBuffer();
  const media = [];
  for (let n = 0; n < mediaCount; n++)
    media.push(await uploadMedia(site, { name: `bench-${n}.png`, bytes, type: 'image/png' }));
  for (let n = 0; n < mediaCount; n += 5)
    await createPost(site, {
      title: `Bench post ${n / 5}`,
      content: media
        .slice(n, n + 5)
        .map((item, k) => imageBlock(item, `DSC_${n + k}.png`))
        .join('\n\n'),
    });
  console.log(
    `seeded ${mediaCount} images and ${mediaCount / 5} posts in ${seconds(seedStarted).toFixed(1)} s`,
  );

  const user = await createUser(t, mediaCount * 3);
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: user.auth, ...(payload ? { payload } : {}) });
  const connected = await api('POST', '/integrations/wordpress', {
    siteUrl: site.url,
    username: site.username,
    applicationPassword: site.applicationPassword,
  });
  const { id } = connected.json() as { id: string };
  const settled = () =>
    waitFor(
      async () => {
        const body = (await api('GET', `/integrations/${id}`)).json();
        return body.status === 'importing' || body.status === 'publishing' ? null : body;
      },
      30 * 60_000,
      200,
    );

  const importStarted = performance.now();
  await api('POST', `/integrations/${id}/import`);
  const imported = await settled();
  const importSeconds = seconds(importStarted);
  console.log(
    `import: ${imported.imported} images, ${imported.placements} placements in ${importSeconds.toFixed(1)} s`,
  );

  const auditId = imported.auditId as string;
  // At most 500 images per fix call: call again until nothing is left to fix.
  while ((await api('POST', `/audits/${auditId}/fix`, {})).statusCode === 202);
  await waitFor(
    async () => {
      const left = (await api('GET', `/audits/${auditId}/images?pageSize=1&verdict=fail&review=none`)).json();
      return left.total === 0;
    },
    30 * 60_000,
    500,
  );
  for (;;) {
    const items = (await api('GET', `/audits/${auditId}/images?pageSize=500&review=pending`)).json()
      .items as {
      id: string;
    }[];
    if (items.length === 0) break;
    const reviewed = await api('POST', `/audits/${auditId}/review`, {
      imageIds: items.map((item) => item.id),
      action: 'accept',
    });
    if (reviewed.statusCode !== 200) throw new Error(`review failed: ${reviewed.body}`);
  }

  const publishStarted = performance.now();
  await api('POST', `/integrations/${id}/publish`, {});
  const published = await settled();
  const publishSeconds = seconds(publishStarted);
  const writes = Number(/Published (\d+)/.exec(published.notice ?? '')?.[1] ?? 0);
  console.log(`publish: ${published.notice} ${published.error ?? ''} in ${publishSeconds.toFixed(1)} s`);
  console.log(`load average: ${load()}`);
  printBenchJson('wordpress', {
    importSeconds: round(importSeconds, 1),
    publishSeconds: round(publishSeconds, 1),
    media: imported.imported,
    placements: imported.placements,
    writes,
    loadAverage: load(),
  });
} finally {
  await t.cleanup();
  await site.stop();
}
