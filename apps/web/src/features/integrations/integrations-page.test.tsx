import type { Integration, IntegrationSummary } from '@altwise/contracts/integrations';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const summary: IntegrationSummary = {
  id: '44444444-4444-4444-8444-444444444444',
  kind: 'wordpress',
  siteUrl: 'https://blog.example',
  username: 'editor',
  status: 'imported',
  createdAt: '2026-11-25T09:00:00.000Z',
};
const partly: Integration = {
  ...summary,
  mediaCount: 3,
  imported: 3,
  placements: 2,
  auditId: '55555555-5555-4555-8555-555555555555',
  lastImportAt: '2026-11-25T09:05:00.000Z',
  error: 'WordPress does not let this user do this (HTTP 403) while reading “The old quay”.',
  notice: '2 changes published.',
  progress: { written: 0, failed: 2, total: 2, startedAt: '2026-11-25T09:06:00.000Z', etaSeconds: null },
  failures: [
    {
      mediaId: 12,
      postId: 7,
      message: 'WordPress does not let this user do this (HTTP 403) while reading “The old quay”.',
    },
    {
      mediaId: 12,
      postId: null,
      message: 'WordPress does not let this user do this (HTTP 403) while reading image 12.',
    },
  ],
};

describe('integrations (/integrations)', () => {
  it('lists each place a publish could not write, naming the image and the post, after a 403', async () => {
    mockApi({
      'GET /integrations': () => json([summary]),
      [`GET /integrations/${summary.id}`]: () => json(partly),
      [`GET /integrations/${summary.id}/changes`]: () => json([]),
    });
    storeSession('jwt-1');
    renderApp('/integrations');
    await screen.findByRole('heading', { level: 1, name: 'Integrations' }, { timeout: 5000 });
    const site = await screen.findByRole('region', { name: 'https://blog.example' });
    const heading = await within(site).findByRole('heading', { name: 'Places not written' });
    const list = heading.nextElementSibling as HTMLElement;
    const items = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Image 12 in post 7: WordPress does not let this user do this (HTTP 403) while reading “The old quay”.',
      'Image 12, its alt text in the media library: WordPress does not let this user do this (HTTP 403) while reading image 12.',
    ]);
  });

  it('shows no such list when every place was written', async () => {
    mockApi({
      'GET /integrations': () => json([summary]),
      [`GET /integrations/${summary.id}`]: () => json({ ...partly, error: null, failures: [] }),
      [`GET /integrations/${summary.id}/changes`]: () => json([]),
    });
    storeSession('jwt-1');
    renderApp('/integrations');
    const site = await screen.findByRole('region', { name: 'https://blog.example' }, { timeout: 5000 });
    await within(site).findByText('2 changes published.');
    expect(within(site).queryByRole('heading', { name: 'Places not written' })).toBeNull();
  });

  it('names each published change by its file name beside our stored thumbnail, newest first', async () => {
    const http = { ...summary, siteUrl: 'http://bakery.example' };
    mockApi({
      'GET /integrations': () => json([http]),
      [`GET /integrations/${summary.id}`]: () =>
        json({ ...partly, ...http, error: null, failures: [], notice: null, progress: null }),
      [`GET /integrations/${summary.id}/changes`]: () =>
        json([
          {
            id: '88888888-8888-4888-8888-888888888888',
            mediaId: 10,
            postId: 3,
            postTitle: 'At the bakery',
            fileName: 'sign.jpg',
            src: 'http://bakery.example/wp-content/uploads/sign.jpg',
            thumbnailUrl: '/files/previews/2026-11/sign.webp',
            field: 'content',
            before: '',
            after: 'Hand-painted sign: fresh bread daily',
            publishedAt: '2026-11-25T10:00:00.000Z',
          },
          {
            id: '99999999-9999-4999-8999-999999999999',
            mediaId: 11,
            fileName: 'Crème brûlée.jpg',
            src: 'http://bakery.example/wp-content/uploads/Cr%C3%A8me-br%C3%BBl%C3%A9e.jpg',
            thumbnailUrl: null,
            field: 'alt_text',
            before: 'IMG_0042',
            after: 'A crème brûlée with a cracked sugar top',
            publishedAt: '2026-11-25T09:59:00.000Z',
          },
        ]),
    });
    storeSession('jwt-1');
    renderApp('/integrations');
    const site = await screen.findByRole('region', { name: 'http://bakery.example' }, { timeout: 5000 });
    const table = await within(site).findByRole('table', {
      name: 'Changes published to this site, newest first',
    });
    const [first, second] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('rowheader')).toHaveTextContent('“At the bakery”, sign.jpg');
    // Our stored copy, decorative: the file name is the text beside it.
    const thumbnail = first.querySelector('img');
    expect(thumbnail).toHaveAttribute('src', '/files/previews/2026-11/sign.webp');
    expect(thumbnail).toHaveAttribute('alt', '');
    expect(within(first).queryByRole('img')).toBeNull();
    expect(within(first).getByRole('button', { name: 'Undo: “At the bakery”, sign.jpg' })).toBeEnabled();
    // Without a stored copy, the site's own picture.
    expect(within(second).getByRole('rowheader')).toHaveTextContent('Media library, Crème brûlée.jpg');
    expect(second.querySelector('img')).toHaveAttribute(
      'src',
      'http://bakery.example/wp-content/uploads/Cr%C3%A8me-br%C3%BBl%C3%A9e.jpg',
    );
    expect(
      within(second).getByRole('button', { name: 'Undo: Media library, Crème brûlée.jpg' }),
    ).toBeEnabled();
  });

  it('shows a publish under way as a named progress bar, with written, failed and time left in words', async () => {
    mockApi({
      'GET /integrations': () => json([{ ...summary, status: 'publishing' }]),
      [`GET /integrations/${summary.id}`]: () =>
        json({
          ...partly,
          status: 'publishing',
          error: null,
          notice: null,
          failures: [],
          progress: {
            written: 120,
            failed: 2,
            total: 600,
            startedAt: '2026-11-25T09:06:00.000Z',
            etaSeconds: 170,
          },
        }),
      [`GET /integrations/${summary.id}/changes`]: () => json([]),
    });
    storeSession('jwt-1');
    renderApp('/integrations');
    const site = await screen.findByRole('region', { name: 'https://blog.example' }, { timeout: 5000 });
    const bar = await within(site).findByRole('progressbar', { name: 'Publishing to https://blog.example' });
    expect(bar.getAttribute('aria-valuetext')).toBe('120 of 600 written, 2 failed; about 3 minutes left.');
    expect(within(site).getByText('120 of 600 written, 2 failed; about 3 minutes left.')).toBeTruthy();
  });

  it('shows what a publish will write and where, and publishes only on confirm', async () => {
    const user = userEvent.setup();
    const calls = mockApi({
      'GET /integrations': () => json([summary]),
      [`GET /integrations/${summary.id}`]: () => json({ ...partly, error: null, failures: [], notice: null }),
      [`GET /integrations/${summary.id}/changes`]: () => json([]),
      [`POST /integrations/${summary.id}/publish/preview`]: () =>
        json({
          items: [
            {
              imageId: '66666666-6666-4666-8666-666666666666',
              mediaId: 12,
              fileName: 'quay.jpg',
              src: 'https://blog.example/wp-content/uploads/quay.jpg',
              postId: 7,
              postTitle: 'The old quay',
              field: 'content',
              before: '',
              after: 'Fishing boats moored at the old stone quay',
            },
          ],
          heldBack: [
            {
              imageId: '77777777-7777-4777-8777-777777777777',
              mediaId: 13,
              fileName: 'dusk.jpg',
              postId: null,
              postTitle: null,
              altText: 'Dark photograph in grey tones.',
              code: 'kind-and-tone',
              message: 'The text only names the kind of picture and its colours, not what it shows.',
            },
          ],
          unchanged: 0,
        }),
      [`POST /integrations/${summary.id}/publish`]: () => json({ id: summary.id, status: 'publishing' }, 202),
    });
    storeSession('jwt-1');
    renderApp('/integrations');
    const site = await screen.findByRole('region', { name: 'https://blog.example' }, { timeout: 5000 });
    await user.click(await within(site).findByRole('button', { name: 'Publish approved alt text' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish to https://blog.example?' });
    const row = within(dialog).getByRole('row', { name: /quay\.jpg/ });
    expect(row.textContent).toContain('“The old quay”');
    expect(row.textContent).toContain('Fishing boats moored at the old stone quay');
    expect(within(dialog).getByRole('heading', { name: '1 image needs your words' })).toBeTruthy();
    expect(within(dialog).getByText(/dusk\.jpg \(media library\): The text only names/)).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.path.endsWith('/publish'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Publish 1 alt text' }));
    await vi.waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.path.endsWith('/publish'))).toBe(true),
    );
  });
});
