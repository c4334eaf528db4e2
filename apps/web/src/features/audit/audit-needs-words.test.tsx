import type { AuditImage } from '@altwise/contracts/audit';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../../test/axe.ts';
import { json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { auditId, imageId, makeAudit, makeImage } from './audit-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const base = `/audits/${auditId}`;
const noPages = { [`GET ${base}/pages`]: () => json({ items: [] }) };

const failing = [
  { code: 'missing' as const, severity: 'fail' as const, wcag: ['1.1.1'], message: 'No alt attribute.' },
];

/** The engine found nothing it can stand behind: no words, the reason and what it did find. */
const needsWords: AuditImage = makeImage(1, {
  alt: null,
  verdict: 'fail',
  problems: failing,
  suggestion: '',
  reviewState: 'pending',
  origin: 'ai',
  suggestionEvidence: {
    confidence: 0.12,
    needsReview: true,
    reasons: [
      { source: 'ocr', detail: 'SALE', score: 0.41 },
      { source: 'detection', detail: 'cup', score: 0.22 },
    ],
    needsWords: true,
    needsWordsReason: 'Nothing in or around this image tells us what it shows: it needs your words.',
    publishable: false,
  },
  usedIn: {
    heading: 'Breakfast',
    caption: 'Our morning',
    linkTarget: 'https://shop.example/menu',
    linkText: 'Menu',
  },
});

/** A grounded suggestion the engine is sure of. */
const sure: AuditImage = makeImage(2, {
  alt: 'IMG_2041.jpg',
  verdict: 'fail',
  problems: failing,
  suggestion: 'A red bicycle against a brick wall',
  reviewState: 'pending',
  origin: 'ai',
  suggestionEvidence: {
    confidence: 0.87,
    needsReview: false,
    reasons: [{ source: 'model', detail: 'vision model' }],
    needsWords: false,
    needsWordsReason: null,
    publishable: true,
  },
});

const imagesHandler = (images: AuditImage[]) => () => json({ items: images, total: images.length });

async function openDetail() {
  storeSession('jwt-1');
  renderApp(`/audit/${auditId}`);
  await screen.findByRole(
    'heading',
    { level: 1, name: 'Audit of https://shop.example/' },
    { timeout: 20_000 },
  );
}

describe('reviewing images that need words', () => {
  it('shows confidence and the needs-your-words and needs-review badges as a table column', async () => {
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler([needsWords, sure]),
    });
    await openDetail();
    const table = await screen.findByRole('table', { name: /Audited images/ }, { timeout: 10_000 });
    expect(within(table).getByRole('columnheader', { name: 'Confidence' })).toBeInTheDocument();
    const rows = await within(table).findAllByRole('row');
    const first = rows.find((row) => within(row).queryByText('Image 1'));
    const second = rows.find((row) => within(row).queryByText('Image 2'));
    expect(first).toHaveTextContent('12%');
    expect(first).toHaveTextContent('Needs your words');
    expect(second).toHaveTextContent('87%');
    // It has nothing to accept: only a person's words or a decorative mark can go live.
    expect(screen.queryByRole('button', { name: 'Accept suggestion for image 1' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept suggestion for image 2' })).toBeInTheDocument();
    // A skip link goes straight to the table.
    expect(screen.getByRole('link', { name: 'Skip to the images table' })).toHaveAttribute(
      'href',
      '#audit-images-heading',
    );
  }, 30_000);

  it('opens the dialog with the grounds, where it is used, the checklist and an empty field', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler([needsWords]),
      [`POST ${base}/review`]: () =>
        json({ items: [], reviews: { pending: 0, accepted: 0, rejected: 0, edited: 1 }, skipped: 0 }),
    });
    const user = userEvent.setup();
    await openDetail();
    await user.click(await screen.findByRole('button', { name: 'Edit suggestion for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit suggestion for image 1' });
    const guide = within(dialog).getByRole('region', { name: 'Needs your words' });
    expect(guide).toHaveTextContent('it needs your words');
    expect(guide).toHaveTextContent('Text in the image: SALE (41%)');
    expect(guide).toHaveTextContent('Detected object: cup (22%)');
    expect(guide).toHaveTextContent('Caption');
    expect(guide).toHaveTextContent('Our morning');
    expect(guide).toHaveTextContent('https://shop.example/menu');
    const checklist = within(guide)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(checklist).toEqual(
      expect.arrayContaining(['What is it for?', 'Is there text in it?', 'What would a visitor miss?']),
    );
    expect(guide).toHaveTextContent('OPENAI_BASE_URL');
    expect(within(dialog).getByRole('textbox', { name: 'Your alt text' })).toHaveValue('');
    await expectNoAxeViolations(dialog);

    await user.click(within(dialog).getByRole('button', { name: 'Mark as decorative' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((call: MockCall) => call.method === 'POST')?.body).toEqual({
      imageIds: [imageId(1)],
      action: 'decorative',
    });
    expect(
      await screen.findByText('Marked as decorative', { selector: 'p[role="status"]' }),
    ).toBeInTheDocument();
  }, 30_000);

  it('approves all, skipping those that need words, and says how many in a polite live region', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler([needsWords, sure]),
      [`POST ${base}/review`]: () =>
        json({ items: [], reviews: { pending: 1, accepted: 1, rejected: 0, edited: 0 }, skipped: 1 }),
    });
    const user = userEvent.setup();
    await openDetail();
    await user.click(await screen.findByRole('button', { name: 'Approve all' }));
    await waitFor(() =>
      expect(
        screen.getByText('Suggestion accepted. 1 image needs your words.', { selector: '[role="status"]' }),
      ).toBeInTheDocument(),
    );
    expect(calls.find((call: MockCall) => call.method === 'POST')?.body).toEqual({
      imageIds: [imageId(1), imageId(2)],
      action: 'accept',
      skipUnpublishable: true,
    });
  }, 30_000);

  it('accepts the selection without the images that need words, and says so', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler([needsWords, sure]),
      [`POST ${base}/review`]: () =>
        json({ items: [], reviews: { pending: 1, accepted: 1, rejected: 0, edited: 0 }, skipped: 0 }),
    });
    const user = userEvent.setup();
    await openDetail();
    await user.click(await screen.findByRole('checkbox', { name: 'Select all images on this page' }));
    await user.click(screen.getByRole('button', { name: 'Accept selected' }));
    await waitFor(() =>
      expect(
        screen.getByText('Suggestion accepted. 1 image needs your words.', { selector: '[role="status"]' }),
      ).toBeInTheDocument(),
    );
    expect(calls.find((call: MockCall) => call.method === 'POST')?.body).toEqual({
      imageIds: [imageId(2)],
      action: 'accept',
    });
  }, 30_000);
});
