import type { Audit, AuditImage } from '@altwise/contracts/audit';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../../test/axe.ts';
import { findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { auditId, imageId, makeAudit, makeImage } from './audit-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const base = `/audits/${auditId}`;

function eventStream(events: Audit[]) {
  const text = events.map((event) => `event: progress\ndata: ${JSON.stringify(event)}\n\n`).join('');
  const chunks = [text.slice(0, 41), text.slice(41)];
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
  );
}

const missing: AuditImage = makeImage(1, {
  alt: null,
  verdict: 'fail',
  problems: [
    { code: 'missing', severity: 'fail', wcag: ['1.1.1'], message: 'The image has no alt attribute.' },
  ],
});
const fileName: AuditImage = makeImage(2, {
  alt: 'IMG_2041.jpg',
  pageUrl: 'https://shop.example/about',
  verdict: 'fail',
  problems: [
    {
      code: 'file-name',
      severity: 'fail',
      wcag: ['1.1.1'],
      message: 'The alt "IMG_2041.jpg" looks like a file name.',
    },
  ],
  suggestion: 'A red bicycle against a brick wall',
  reviewState: 'pending',
});
const good: AuditImage = makeImage(3, { alt: 'Our team at the 2025 meetup' });

/** GET /audits/{id}/pages with no page scanned (the screen-reader preview's list). */
const noPages = { [`GET ${base}/pages`]: () => json({ items: [] }) };

/** GET /audits/{id}/images answering from `images` with the verdict filter applied. */
const imagesHandler = (images: () => AuditImage[]) => (call: MockCall) => {
  const verdict = call.query.get('verdict');
  const items = images().filter((image) => !verdict || image.verdict === verdict);
  return json({ items, total: items.length });
};

async function openDetail(path = `/audit/${auditId}`) {
  storeSession('jwt-1');
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Audit of https://shop.example/' }, { timeout: 5000 });
  return view;
}

describe('audit detail (/audit/:id)', () => {
  it('follows a running audit through its event stream in a live region, then shows the score and counts', async () => {
    const running = makeAudit({
      status: 'running',
      pagesScanned: 1,
      imagesFound: 2,
      score: null,
      finishedAt: null,
    });
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(running),
      [`GET ${base}/events`]: () =>
        eventStream([
          { ...running, pagesScanned: 2, imagesFound: 4 },
          makeAudit({ reviews: { pending: 1, accepted: 0, rejected: 0, edited: 0 } }),
        ]),
      [`GET ${base}/images`]: imagesHandler(() => [missing, fileName, good]),
    });
    await openDetail();
    const status = screen.getAllByRole('status').find((el) => el.textContent?.startsWith('Audit'));
    expect(status).toBeDefined();
    await waitFor(() => expect(status).toHaveTextContent('Audit complete: 3 pages scanned, 5 images found.'));
    const summary = screen.getByRole('heading', { name: 'Summary' }).closest('section') as HTMLElement;
    expect(within(summary).getByText('40%')).toBeInTheDocument();
    expect(
      within(summary).getByText('Suggestions: 1 pending, 0 accepted, 0 edited, 0 rejected.'),
    ).toBeInTheDocument();
    const problems = within(summary).getByRole('table', { name: 'Problems found' });
    expect(
      within(problems).getByRole('row', { name: /missing Missing alt fail 1\.1\.1 1/ }),
    ).toBeInTheDocument();
    expect(
      within(problems).getByRole('row', { name: /redundant Redundant alt warning 1\.1\.1 1/ }),
    ).toBeInTheDocument();
  });

  it('lists the images with the existing alt or (missing), the verdict, problems with WCAG and messages, and the suggestion', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [missing, fileName, good]),
    });
    const user = userEvent.setup();
    await openDetail();
    const table = await screen.findByRole('table', { name: /Audited images/ });
    await within(table).findByText('(missing)');
    // The suggestion sits next to the existing alt.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['', 'Image', 'Existing alt', 'Suggestion', 'Confidence', 'Verdict', 'Problems', 'Review']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent(/Fail.*missing \(fail, WCAG 1\.1\.1\)The image has no alt attribute\./);
    // Each row names its image by file name, as people know their images.
    expect(within(rows[0] as HTMLElement).getByRole('rowheader')).toHaveTextContent(/^Image 11\.jpg/);
    expect(rows[1]).toHaveTextContent('IMG_2041.jpg');
    expect(rows[1]).toHaveTextContent('A red bicycle against a brick wall');
    expect(rows[1]).toHaveTextContent('Pending');
    expect(rows[2]).toHaveTextContent(/Pass\s*None/);

    await user.selectOptions(screen.getByLabelText('Verdict'), 'fail');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(calls.at(-1)?.query.get('verdict')).toBe('fail');
    await user.selectOptions(screen.getByLabelText('Problem'), 'file-name');
    await user.selectOptions(screen.getByLabelText('Review state'), 'pending');
    await waitFor(() => expect(calls.at(-1)?.query.get('review')).toBe('pending'));
    expect(calls.at(-1)?.query.get('problem')).toBe('file-name');
    expect(calls.at(-1)?.query.get('page')).toBe('1');
  });

  it('pages through the images 25 at a time', async () => {
    const many = Array.from({ length: 30 }, (_, i) => makeImage(i + 1));
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit({ imagesFound: 30 })),
      [`GET ${base}/images`]: (call) => {
        const page = Number(call.query.get('page'));
        const size = Number(call.query.get('pageSize'));
        return json({ items: many.slice((page - 1) * size, page * size), total: many.length });
      },
    });
    const user = userEvent.setup();
    await openDetail();
    expect(await screen.findByText('Page 1 of 2 (30 images)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2 (30 images)')).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'Select image 30' })).toBeInTheDocument();
  });

  it('fixes failing images: shows the cost, and the server’s 402 message when credits are short', async () => {
    let answer = () => json({ message: 'You need 2 credits and have 1.', code: 'INSUFFICIENT_CREDITS' }, 402);
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [missing, fileName, good]),
      'GET /credits/remaining': () => json({ success: true, imageCredits: 1 }),
      [`POST ${base}/fix`]: () => answer(),
      'GET /images/batches/bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb': () =>
        json({
          id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
          status: 'completed',
          total: 1,
          completed: 1,
          failed: 0,
          creditsReserved: 1,
          createdAt: '2026-11-23T10:02:00.000Z',
          finishedAt: '2026-11-23T10:02:05.000Z',
          failures: [],
        }),
    });
    const user = userEvent.setup();
    await openDetail();
    expect(
      await screen.findByText(/2 failing images cost 2 credits\. You have 1 credit\./),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Fix failing images' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You need 2 credits and have 1.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Fix failing images' })).toHaveFocus());
    expect(calls.find((call) => call.path === `${base}/fix`)?.body).toEqual({});

    answer = () =>
      json(
        {
          batchId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
          images: [imageId(1)],
          creditsReserved: 1,
          remainingCredits: 0,
          remaining: 0,
        },
        202,
      );
    await user.click(await screen.findByRole('checkbox', { name: 'Select image 1' }));
    expect(screen.getByText(/the 1 selected cost 1/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Fix selected images' }));
    expect(await findToast('Writing suggestions for 1 image')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === `${base}/fix`).at(-1)?.body).toEqual({
      imageIds: [imageId(1)],
    });
    expect(await screen.findByText('Suggestions written: 1 of 1. Review them below.')).toBeInTheDocument();
  });

  it('offers Buy credits with a way back, and Fix N of M now, when credits are short', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [missing, fileName, good]),
      'GET /credits/remaining': () => json({ success: true, imageCredits: 1 }),
      [`POST ${base}/fix`]: (call) =>
        call.body && 'limit' in (call.body as object)
          ? json(
              {
                batchId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
                images: [imageId(1)],
                creditsReserved: 1,
                remainingCredits: 0,
                remaining: 1,
              },
              202,
            )
          : json({ message: 'Insufficient credits', code: 'INSUFFICIENT_CREDITS' }, 402),
    });
    const user = userEvent.setup();
    await openDetail();
    await screen.findByText(/You have 1 credit\./);
    await user.click(screen.getByRole('button', { name: 'Fix failing images' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Insufficient credits');
    expect(within(alert).getByRole('link', { name: 'Buy credits' })).toHaveAttribute(
      'href',
      `/plans?returnTo=${encodeURIComponent(`/audit/${auditId}`)}`,
    );
    await user.click(within(alert).getByRole('button', { name: 'Fix 1 of 2 now' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === `${base}/fix`).at(-1)?.body).toEqual({ limit: 1 }),
    );
    expect(
      await findToast('Writing suggestions for 1 image; 1 more failing images are left for a next fix'),
    ).toBeInTheDocument();
  });

  it('accepts one suggestion and keeps focus on its button; bulk-rejects a selection', async () => {
    let state: AuditImage['reviewState'] = 'pending';
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [missing, { ...fileName, reviewState: state }]),
      [`POST ${base}/review`]: (call) => {
        state = (call.body as { action: string }).action === 'accept' ? 'accepted' : 'rejected';
        return json({ items: [], reviews: { pending: 0, accepted: 1, rejected: 0, edited: 0 } });
      },
    });
    const user = userEvent.setup();
    await openDetail();
    const accept = await screen.findByRole('button', { name: 'Accept suggestion for image 2' });
    expect(screen.queryByRole('button', { name: 'Accept suggestion for image 1' })).not.toBeInTheDocument();
    await user.click(accept);
    expect(await findToast('Suggestion accepted')).toBeInTheDocument();
    expect(calls.find((call) => call.path === `${base}/review`)?.body).toEqual({
      imageIds: [imageId(2)],
      action: 'accept',
    });
    const table = screen.getByRole('table', { name: /Audited images/ });
    await waitFor(() => expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Accepted'));
    expect(screen.getByRole('button', { name: 'Accept suggestion for image 2' })).toHaveFocus();

    expect(screen.getByRole('button', { name: 'Reject selected' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all images on this page' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reject selected' }));
    // Only the selected images that have a suggestion are sent.
    await waitFor(() =>
      expect(calls.filter((call) => call.path === `${base}/review`).at(-1)?.body).toEqual({
        imageIds: [imageId(2)],
        action: 'reject',
      }),
    );
  });

  it('edits a suggestion in a dialog checked by the contract, then saves it as an edit', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [fileName]),
      [`POST ${base}/review`]: () =>
        json({ items: [], reviews: { pending: 0, accepted: 0, rejected: 0, edited: 1 } }),
    });
    const user = userEvent.setup();
    await openDetail();
    const edit = await screen.findByRole('button', { name: 'Edit suggestion for image 1' });
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Edit suggestion for image 1' });
    const field = within(dialog).getByLabelText('Suggested alt text');
    expect(field).toHaveValue('A red bicycle against a brick wall');
    expect(field).toHaveFocus();
    expect(within(dialog).getByText('IMG_2041.jpg')).toBeInTheDocument();
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save and accept' }));
    expect(await within(dialog).findByText('Alt text cannot be empty')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.type(field, '  A red bicycle by the shop door ');
    await user.click(within(dialog).getByRole('button', { name: 'Save and accept' }));
    expect(await findToast('Suggestion saved and accepted')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      imageIds: [imageId(2)],
      action: 'edit',
      altText: 'A red bicycle by the shop door',
      longDescription: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(edit).toHaveFocus();
  });

  it('shows a chart suggestion’s long description, copies its markup and saves an edited one (axe finds nothing)', async () => {
    const description = 'Visitors per month. Jan: 1,200; Feb: 1,450; Mar: 1,800.';
    const chart = makeImage(4, {
      alt: 'chart.png',
      src: 'https://shop.example/img/chart.png?size=2&kind="bar"',
      verdict: 'fail',
      problems: [
        {
          code: 'file-name',
          severity: 'fail',
          wcag: ['1.1.1'],
          message: 'The alt "chart.png" looks like a file name.',
        },
      ],
      suggestion: 'Bar chart: visitors per month, January to March',
      longDescription: description,
      reviewState: 'pending',
      suggestionEvidence: {
        confidence: 0.64,
        needsReview: true,
        reasons: [{ source: 'ocr', detail: 'Visitors per month; Jan 1,200; Feb 1,500; Mar 1,800' }],
        needsWords: false,
        needsWordsReason: null,
        publishable: true,
      },
    });
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [chart]),
      [`POST ${base}/review`]: () =>
        json({ items: [], reviews: { pending: 0, accepted: 0, rejected: 0, edited: 1 } }),
    });
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await openDetail();
    await user.click(await screen.findByRole('button', { name: 'Edit suggestion for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit suggestion for image 1' });
    const field = within(dialog).getByRole('textbox', { name: 'Long description' });
    expect(field).toHaveValue(description);
    // The engine's confidence and evidence beside the draft (point 9).
    const evidence = within(dialog).getByRole('region', { name: 'Evidence and confidence' });
    expect(evidence).toHaveTextContent('Confidence: 64% — needs review');
    expect(evidence).toHaveTextContent('Text in the image: Visitors per month; Jan 1,200');
    await expectNoAxeViolations(dialog);

    await user.click(within(dialog).getByRole('button', { name: 'Copy markup' }));
    // The src's quotes and ampersand are escaped: the markup is safe to paste into a page.
    expect(writeText).toHaveBeenCalledWith(
      '<img src="https://shop.example/img/chart.png?size=2&amp;kind=&quot;bar&quot;" alt="Bar chart: visitors per month, January to March" aria-describedby="desc-aaaaaaaa">\n' +
        `<p id="desc-aaaaaaaa">${description}</p>`,
    );
    expect(await findToast('Markup copied!')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'Jan: 1,200; Mar: 1,800.');
    await user.click(within(dialog).getByRole('button', { name: 'Save and accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      imageIds: [imageId(4)],
      action: 'edit',
      altText: 'Bar chart: visitors per month, January to March',
      longDescription: 'Jan: 1,200; Mar: 1,800.',
    });
  });

  it('shows the stored preview in the table and large in the suggestion dialog; the original when there is none', async () => {
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [{ ...fileName }, makeImage(3, { thumbnailUrl: null })]),
    });
    const user = userEvent.setup();
    await openDetail();
    const edit = await screen.findByRole('button', { name: 'Edit suggestion for image 1' });
    const table = edit.closest('table') as HTMLElement;
    const [withPreview, without] = [...table.querySelectorAll('tbody img')];
    expect(withPreview).toHaveAttribute('src', fileName.thumbnailUrl);
    expect(withPreview).toHaveAttribute('alt', '');
    expect(without).toHaveAttribute('src', 'https://shop.example/img/3.jpg');
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Edit suggestion for image 1' });
    const large = dialog.querySelector('img');
    expect(large).toHaveAttribute('src', fileName.thumbnailUrl);
    expect(large).toHaveAttribute('alt', '');
    expect(within(dialog).getByLabelText('Suggested alt text')).toHaveFocus();
  });

  it('exports the report as CSV with the token and saves the file', async () => {
    const calls = mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [good]),
      [`GET ${base}/report.csv`]: () =>
        new Response('page_url,image_url\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      value: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:report';
      },
      configurable: true,
    });
    Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const user = userEvent.setup();
    await openDetail();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(await blobs[0]?.text()).toBe('page_url,image_url\n');
    expect(downloads).toEqual(['altwise-audit-11111111.csv']);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' })).toHaveFocus());
    expect(calls.find((call) => call.path.endsWith('report.csv'))?.headers.get('Authorization')).toBe(
      'Bearer jwt-1',
    );
    expect(screen.getByRole('link', { name: 'Printable report' })).toHaveAttribute(
      'href',
      `/audit/${auditId}/report`,
    );
  });

  it('disables Download images with alt text, saying why, until a suggestion is approved', async () => {
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [missing, good]),
    });
    await openDetail();
    const button = screen.getByRole('button', { name: 'Download images with alt text' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      'Download images with alt text is available once you accept or edit at least one suggestion.',
    );
  });

  it('downloads the images with their alt text as a zip, and shows the origin of a suggestion', async () => {
    const suggested = makeImage(2, {
      suggestion: 'A red kite over a moor',
      reviewState: 'accepted',
      origin: 'ai-reviewed',
    });
    const calls = mockApi({
      [`GET ${base}`]: () =>
        json(makeAudit({ reviews: { pending: 0, accepted: 1, rejected: 0, edited: 0 } })),
      [`GET ${base}/images`]: imagesHandler(() => [good, suggested]),
      [`GET ${base}/images-with-alt.zip`]: () =>
        new Response('PK zip', { headers: { 'Content-Type': 'application/zip' } }),
    });
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      value: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:zip';
      },
      configurable: true,
    });
    Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const user = userEvent.setup();
    await openDetail();
    await screen.findByText('A red kite over a moor');
    expect([...document.querySelectorAll('td [data-origin]')].map((label) => label.textContent)).toEqual([
      'Origin: AI, reviewed',
    ]);
    await user.click(screen.getByRole('button', { name: 'Download images with alt text' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(downloads).toEqual(['altwise-audit-11111111-images-with-alt-text.zip']);
    expect(
      calls.find((call) => call.path.endsWith('images-with-alt.zip'))?.headers.get('Authorization'),
    ).toBe('Bearer jwt-1');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Download images with alt text' })).toHaveFocus(),
    );
  });

  it('says so when the audit is not the user’s', async () => {
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json({ message: 'There is no such audit.', code: 'NOT_FOUND' }, 404),
    });
    storeSession('jwt-1');
    renderApp(`/audit/${auditId}`);
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'There is no such audit.',
    );
    expect(screen.getByRole('link', { name: 'Back to your audits' })).toHaveAttribute('href', '/audit');
  });
});

describe('audit report (/audit/:id/report)', () => {
  it('shows the summary, the score per page and the failing images, and prints', async () => {
    mockApi({
      ...noPages,
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [
        missing,
        fileName,
        good,
        makeImage(4, { alt: '', verdict: 'decorative' }),
      ]),
    });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const user = userEvent.setup();
    storeSession('jwt-1');
    renderApp(`/audit/${auditId}/report`);
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Alt-text audit report: https://shop.example/' },
      { timeout: 5000 },
    );
    const pages = screen.getByRole('heading', { name: 'Score per page' }).closest('section') as HTMLElement;
    expect(within(pages).getByRole('row', { name: 'https://shop.example/ 3 1 50%' })).toBeInTheDocument();
    expect(within(pages).getByRole('row', { name: 'https://shop.example/about 1 1 0%' })).toBeInTheDocument();
    const failing = screen
      .getByRole('heading', { name: 'Failing images (2)' })
      .closest('section') as HTMLElement;
    expect(
      within(failing).getByText('The image has no alt attribute.', { exact: false }),
    ).toBeInTheDocument();
    expect(within(failing).getByText('(missing)')).toBeInTheDocument();
    // Each failing image with its picture (the stored preview, loaded at once for printing) and name.
    const row = within(failing).getByRole('row', { name: /^2\.jpg/ });
    const picture = row.querySelector('img');
    expect(picture).toHaveAttribute('src', fileName.thumbnailUrl);
    expect(picture).toHaveAttribute('loading', 'eager');
    expect(picture).toHaveAttribute('alt', '');
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });
});

describe('screen-reader preview', () => {
  const pageId = '22222222-2222-4222-8222-222222222222';
  it('lists scanned pages as disclosures that load the announcements with redundant and verbose ones marked (axe-clean)', async () => {
    const calls = mockApi({
      [`GET ${base}`]: () => json(makeAudit()),
      [`GET ${base}/images`]: imagesHandler(() => [
        makeImage(4, { element: 'svg', alt: null, name: 'Rated five stars', nameSource: 'svg-title' }),
      ]),
      [`GET ${base}/pages`]: () =>
        json({
          items: [
            {
              id: pageId,
              url: 'https://shop.example/',
              status: 'scanned',
              note: null,
              images: 3,
              hiddenImages: 1,
              rendered: false,
            },
          ],
        }),
      [`GET ${base}/pages/${pageId}/announcements`]: () =>
        json({
          pageId,
          url: 'https://shop.example/',
          truncated: false,
          hiddenImages: 1,
          redundant: 1,
          verbose: 0,
          items: [
            { role: 'heading', level: 1, name: 'Shoes', spoken: 'heading level 1, Shoes', flags: [] },
            {
              role: 'link',
              name: 'Red shoe',
              spoken: 'link, image, Red shoe',
              image: true,
              href: 'https://shop.example/red',
              flags: [],
            },
            {
              role: 'link',
              name: 'Red shoe',
              spoken: 'link, Red shoe',
              href: 'https://shop.example/red',
              flags: [
                {
                  kind: 'redundant',
                  message: 'It goes to the same address as the image link just before it.',
                },
              ],
            },
          ],
        }),
    });
    const view = await openDetail();
    expect(await screen.findByText('Inline SVG (<svg>)')).toBeInTheDocument();
    expect(screen.getByText(/Accessible name:/).textContent).toBe(
      'Accessible name: Rated five stars (from the SVG <title>)',
    );
    const summary = await screen.findByText(/Screen-reader preview of https:\/\/shop\.example\//);
    expect(calls.some((call) => call.path.endsWith('/announcements'))).toBe(false);
    await userEvent.click(summary);
    const list = await screen.findByRole('list', { name: 'Announcements on https://shop.example/' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'heading level 1, Shoes',
      'link, image, Red shoe',
      'link, Red shoeRedundantIt goes to the same address as the image link just before it.',
    ]);
    expect(
      screen.getByText(/1 redundant announcement, 0 verbose announcements\. 1 hidden image is not announced/),
    ).toBeInTheDocument();
    await expectNoAxeViolations(view.container);
  });
});
