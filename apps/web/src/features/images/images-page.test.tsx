import type { LibraryImageRecord } from '@altwise/contracts/library';
import {
  EXPORT_COLUMNS,
  EXPORT_FILE_NAME,
  EXPORT_ORIGIN_COLUMN,
  EXPORT_SHEET_NAME,
} from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../../test/axe.ts';
import { deferred, findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { buildExportWorkbook } from './export-images.ts';
import { noneNeedReview } from './images-page.tsx';

const m = messages.images;

type LibraryImage = LibraryImageRecord;

/** A library of `count` images, newest first, with UUID ids like the server's; none needs review. */
function makeLibrary(count: number): LibraryImage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    src: `https://example.com/photos/image-${index + 1}.jpg`,
    alt_text: `Alt text ${index + 1}`,
    origin: 'ai' as const,
    confidence: 0.9,
    needsReview: false,
    reasons: [],
    needsWords: false,
    needsWordsReason: null,
    publishable: true,
    longDescription: null,
    // The first image has a stored preview; the others were stored before previews existed.
    thumbnailUrl: index === 0 ? '/files/previews/2026-11/first.webp' : null,
    fileName: `image-${index + 1}.jpg`,
  }));
}

/** GET /images/altText paged like the server: x-total-count and the page's slice (all without page). */
function libraryHandler(library: { current: ReturnType<typeof makeLibrary> }) {
  return (call: MockCall) => {
    const page = call.query.get('page');
    if (!page) return json(library.current);
    const size = Number(call.query.get('pageSize') ?? 25);
    const start = (Number(page) - 1) * size;
    return new Response(JSON.stringify(library.current.slice(start, start + size)), {
      status: 200,
      headers: { 'Content-Type': 'application/json', 'x-total-count': String(library.current.length) },
    });
  };
}

const noBatches = { 'GET /images/batches': () => json([]) };

async function openLibrary() {
  const view = renderApp('/images');
  await screen.findByRole('heading', { level: 1, name: 'Images' }, { timeout: 5000 });
  return view;
}

function rowCheckboxes() {
  const table = screen.getByRole('table', { name: 'Your images and their alt text' });
  return within(table).getAllByRole('checkbox', { name: /^Select image \d+$/ });
}

beforeEach(() => storeSession());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('image library (/images)', () => {
  it("shows 'Loading...' and then the first page of 25 rows with the tool links", async () => {
    const answer = deferred<Response>();
    const library = { current: makeLibrary(30) };
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': async (call) => {
        await answer.promise;
        return libraryHandler(library)(call);
      },
    });
    await openLibrary();
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    answer.resolve(json([]));
    expect(await screen.findByText('Alt text 1')).toBeInTheDocument();
    expect(rowCheckboxes()).toHaveLength(25);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    const listCall = calls.find((call) => call.path === '/images/altText');
    expect(listCall?.query.get('userId')).toBe('u1');
    expect(listCall?.query.get('page')).toBe('1');
    expect(listCall?.query.get('pageSize')).toBe('25');
    for (const name of ['Scrape', 'Upload', 'Edit Image', 'Reel'])
      expect(screen.getByRole('button', { name })).toBeEnabled();
    const url = screen.getByRole('link', { name: /image-1\.jpg/ });
    expect(url).toHaveAttribute('href', 'https://example.com/photos/image-1.jpg');
    expect(url).toHaveAttribute('title', 'https://example.com/photos/image-1.jpg');
  });

  it("shows 'Error: ' with the product spec message when the library cannot be loaded", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ ...noBatches, 'GET /images/altText': () => json({ message: 'Boom', code: 'INTERNAL' }, 500) });
    await openLibrary();
    expect(await screen.findByText(`Error: ${m.loadFailed}`, {}, { timeout: 8000 })).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith(m.loadFailed, expect.anything());
  });

  it("shows 'No images found.' for an empty library, with Delete disabled", async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: [] }) });
    await openLibrary();
    expect(await screen.findByText(m.none)).toBeInTheDocument();
    expect(screen.getByText('Selected: 0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });

  it("says 'User ID is not available' and asks nothing without a user id", async () => {
    localStorage.removeItem('userId');
    localStorage.removeItem('user');
    const calls = mockApi({ ...noBatches });
    await openLibrary();
    expect(await screen.findByText(`Error: ${m.noUserId}`)).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/images/altText')).toHaveLength(0);
  });

  it('the Scrape button opens /scrape', async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: makeLibrary(1) }) });
    const user = userEvent.setup();
    await openLibrary();
    await user.click(screen.getByRole('button', { name: 'Scrape' }));
    expect(await screen.findByLabelText('Web Page URL', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('pages with Next and Previous, and a new page size goes back to page 1', async () => {
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler({ current: makeLibrary(120) }),
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Page 1 of 5');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Alt text 26')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 5')).toBeInTheDocument();
    expect(screen.getByText('26')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Items per page'), '50');
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(await screen.findByText('Alt text 1')).toBeInTheDocument();
    expect(rowCheckboxes()).toHaveLength(50);
    expect(calls.at(-1)?.query.get('pageSize')).toBe('50');
    expect(calls.at(-1)?.query.get('page')).toBe('1');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(
      [...screen.getByLabelText('Items per page').querySelectorAll('option')].map((o) => o.value),
    ).toEqual(['25', '50', '100', '500']);
  });

  it('the header checkbox selects and clears the current page only; the selection survives paging', async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: makeLibrary(30) }) });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    const header = screen.getByRole('checkbox', { name: 'Select all images on this page' });
    await user.click(header);
    expect(screen.getByText('Selected: 25')).toBeInTheDocument();
    expect(rowCheckboxes().every((box) => (box as HTMLInputElement).checked)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Alt text 26');
    expect(rowCheckboxes().some((box) => (box as HTMLInputElement).checked)).toBe(false);
    await user.click(screen.getByRole('checkbox', { name: 'Select image 27' }));
    expect(screen.getByText('Selected: 26')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all images on this page' }));
    expect(screen.getByText('Selected: 30')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all images on this page' }));
    expect(screen.getByText('Selected: 25')).toBeInTheDocument();
  });

  it('deletes the selected images, removes the rows and clears the selection', async () => {
    const library = { current: makeLibrary(5) };
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler(library),
      'DELETE /images/altText': (call) => {
        const ids = (call.body as { ids: string[] }).ids;
        library.current = library.current.filter((image) => !ids.includes(image.id));
        return json({ success: true, deleted: ids.length });
      },
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    const del = screen.getByRole('button', { name: 'Delete' });
    expect(del).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select image 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select image 3' }));
    expect(screen.getByText('Selected: 2')).toBeInTheDocument();
    await user.click(del);
    expect(await findToast(m.deleteSuccess)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Alt text 1')).not.toBeInTheDocument());
    expect(screen.queryByText('Alt text 3')).not.toBeInTheDocument();
    expect(rowCheckboxes()).toHaveLength(3);
    expect(screen.getByText('Selected: 0')).toBeInTheDocument();
    const deleteCall = calls.find((call) => call.method === 'DELETE');
    expect(deleteCall?.body).toEqual({ ids: [makeLibrary(1)[0]?.id, makeLibrary(3)[2]?.id] });
  });

  it('deletes a selection of more than 500 images in calls of at most 500 ids', async () => {
    const library = { current: makeLibrary(600) };
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler(library),
      'DELETE /images/altText': (call) => {
        const ids = (call.body as { ids: string[] }).ids;
        library.current = library.current.filter((image) => !ids.includes(image.id));
        return json({ success: true, deleted: ids.length });
      },
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.selectOptions(screen.getByLabelText('Items per page'), '500');
    await screen.findByText('Page 1 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Select all images on this page' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Alt text 501');
    await user.click(screen.getByRole('checkbox', { name: 'Select all images on this page' }));
    expect(screen.getByText('Selected: 600')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await findToast(m.deleteSuccess)).toBeInTheDocument();
    const deletes = calls.filter((call) => call.method === 'DELETE');
    expect(deletes.map((call) => (call.body as { ids: string[] }).ids.length)).toEqual([500, 100]);
    expect(await screen.findByText(m.none)).toBeInTheDocument();
  }, 20_000);

  it('tells the person when the delete fails and keeps the rows and selection', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler({ current: makeLibrary(2) }),
      'DELETE /images/altText': () => json({ message: 'Down', code: 'INTERNAL' }, 500),
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select image 2' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await findToast(m.deleteFailed)).toBeInTheDocument();
    expect(screen.getByText('Alt text 2')).toBeInTheDocument();
    expect(screen.getByText('Selected: 1')).toBeInTheDocument();
  });

  it("copies an alt text and says 'Alt text copied!'; a refused clipboard says 'Failed to copy text'", async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: makeLibrary(2) }) });
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openLibrary();
    await screen.findByText('Alt text 2');
    await user.click(screen.getByRole('button', { name: 'Copy alt text for image 2' }));
    expect(writeText).toHaveBeenCalledWith('Alt text 2');
    expect(await findToast(m.copied)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy alt text for image 1' }));
    expect(await findToast(m.copyFailed)).toBeInTheDocument();
  });

  it('edits an alt text in a dialog, checked by the contract, and shows the saved text', async () => {
    const library = { current: makeLibrary(2) };
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler(library),
      [`PATCH /images/altText/${library.current[0]?.id}`]: (call) => {
        const alt = (call.body as { alt_text: string }).alt_text;
        library.current = library.current.map((image, index) =>
          index === 0 ? { ...image, alt_text: alt } : image,
        );
        return json(library.current[0]);
      },
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alt text for image 1' });
    const field = within(dialog).getByLabelText('Alt text');
    expect(field).toHaveValue('Alt text 1');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Alt text cannot be empty')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);
    await user.type(field, 'A red bicycle against a brick wall');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await findToast('Alt text updated')).toBeInTheDocument();
    expect(await screen.findByText('A red bicycle against a brick wall')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      alt_text: 'A red bicycle against a brick wall',
      longDescription: null,
    });
  });

  it('edits a chart’s long description, refuses 1,001 characters and copies ready markup (axe finds nothing)', async () => {
    const description = 'Visitors per month. Jan: 1,200; Feb: 1,450; Mar: 1,800.';
    const [first, second] = makeLibrary(2) as [LibraryImage, LibraryImage];
    const library = {
      current: [
        { ...first, alt_text: 'Bar chart: visitors per month', longDescription: description },
        second,
      ],
    };
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler(library),
      [`PATCH /images/altText/${first.id}`]: (call) => {
        const body = call.body as { alt_text: string; longDescription: string | null };
        library.current = library.current.map((image, index) =>
          index === 0 ? { ...image, alt_text: body.alt_text, longDescription: body.longDescription } : image,
        );
        return json(library.current[0]);
      },
    });
    // After userEvent.setup(), which puts its own clipboard in place.
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await openLibrary();
    await screen.findByText('Bar chart: visitors per month');
    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alt text for image 1' });
    const field = within(dialog).getByRole('textbox', { name: 'Long description' });
    expect(field).toHaveValue(description);
    await expectNoAxeViolations(dialog);

    // Copy markup, by keyboard: the image names the visible paragraph with aria-describedby.
    within(dialog).getByRole('button', { name: 'Copy markup' }).focus();
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledWith(
      `<img src="${first.src}" alt="Bar chart: visitors per month" aria-describedby="desc-00000000">\n` +
        `<p id="desc-00000000">${description}</p>`,
    );
    expect(await findToast('Markup copied!')).toBeInTheDocument();

    // Over 1,000 characters: the contract's message beside the field, and nothing is sent.
    await user.clear(field);
    await user.click(field);
    await user.paste('x'.repeat(1001));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('The long description must be at most 1,000 characters'),
    ).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(/at most 1,000 characters$/);
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);
    await expectNoAxeViolations(dialog);

    await user.clear(field);
    await user.type(field, 'Jan: 1,200; Mar: 1,800.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // (Not the toast: the previous test's 'Alt text updated' may still be showing.)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      alt_text: 'Bar chart: visitors per month',
      longDescription: 'Jan: 1,200; Mar: 1,800.',
    });
  });

  it('shows each row’s stored preview in its URL cell (decorative, lazy, fixed size) and a box without one', async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: makeLibrary(2) }) });
    await openLibrary();
    await screen.findByText('Alt text 1');
    const table = screen.getByRole('table', { name: 'Your images and their alt text' });
    // The columns stay the product spec's: the preview is inside the URL cell, not a column of its own.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['#', '', 'URL', 'Alt Text', 'Actions']);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    const firstUrlCell = within(first as HTMLElement)
      .getByRole('link', { name: /image-1\.jpg/ })
      .closest('td');
    const thumbnail = firstUrlCell?.querySelector('img');
    expect(thumbnail).toHaveAttribute('src', '/files/previews/2026-11/first.webp');
    expect(thumbnail).toHaveAttribute('alt', '');
    expect(thumbnail).toHaveAttribute('loading', 'lazy');
    expect(thumbnail).toHaveClass('size-12');
    // Decorative: the row's accessible content is its URL link and alt text, no image name.
    expect(within(first as HTMLElement).queryByRole('img')).not.toBeInTheDocument();
    const secondUrlCell = within(second as HTMLElement)
      .getByRole('link', { name: /image-2\.jpg/ })
      .closest('td');
    expect(secondUrlCell?.querySelector('img')).toBeNull();
    expect(within(secondUrlCell as HTMLElement).getByTestId('thumbnail-placeholder')).toHaveClass('size-12');
  });

  it('names each image by its file name in the list and the edit dialog: an upload by its original name', async () => {
    const [upload, scraped] = makeLibrary(2) as [LibraryImage, LibraryImage];
    const library = [
      {
        ...upload,
        src: 'http://localhost/files/uploads/9b1d3c6e-52f1-4f4e-a0a4-6d2f1c7e8a10.jpg',
        fileName: 'Café crème 🥐.jpg',
      },
      scraped,
    ];
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: library }) });
    const user = userEvent.setup();
    const view = await openLibrary();
    await screen.findByText('Alt text 1');
    const table = screen.getByRole('table', { name: 'Your images and their alt text' });
    const [first, second] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Café crème 🥐.jpg')).toBeVisible();
    // The stored copy's address is still the link; the name is beside it, not its name.
    expect(within(first).getByRole('link', { name: /9b1d3c6e-52f1.*\.jpg/ })).toHaveAttribute(
      'href',
      library[0]?.src,
    );
    expect(within(second).getByText('image-2.jpg')).toBeVisible();
    await expectNoAxeViolations(view.container);

    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alt text for image 1' });
    expect(within(dialog).getByText('Café crème 🥐.jpg')).toBeVisible();
  });

  it('shows the image large in the edit dialog beside the draft, and says so when it has no preview', async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: makeLibrary(2) }) });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alt text for image 1' });
    const large = dialog.querySelector('img');
    expect(large).toHaveAttribute('src', '/files/previews/2026-11/first.webp');
    expect(large).toHaveAttribute('alt', '');
    expect(large).toHaveClass('max-w-[480px]');
    expect(within(dialog).getByLabelText('Alt text')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 2' }));
    const other = await screen.findByRole('dialog', { name: 'Edit alt text for image 2' });
    expect(other.querySelector('img')).toBeNull();
    expect(within(other).getByText('No preview of this image')).toBeInTheDocument();
  });

  it('regenerates an alt text for 1 credit after saying so, and refetches the balance', async () => {
    const library = { current: makeLibrary(1) };
    let credits = 11;
    const id = library.current[0]?.id ?? '';
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler(library),
      'GET /credits/remaining': () => {
        credits -= 1;
        return json({ success: true, imageCredits: credits });
      },
      [`POST /images/altText/${id}/regenerate`]: () => {
        library.current = [
          {
            id,
            src: 'https://example.com/photos/image-1.jpg',
            alt_text: 'Fresh words',
            origin: 'ai',
            confidence: 0.9,
            needsReview: false,
            needsWords: false,
            needsWordsReason: null,
            publishable: true,
            reasons: [],
            longDescription: null,
            thumbnailUrl: '/files/previews/2026-11/first.webp',
            fileName: 'image-1.jpg',
          },
        ];
        return json({ success: true, image: library.current[0], remainingCredits: 9 });
      },
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(screen.getByRole('button', { name: /Regenerate alt text for image 1/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Regenerate alt text for image 1' });
    expect(within(dialog).getByText(/costs 1 credit/)).toBeInTheDocument();
    await within(dialog).findByText('You have 10 credits.');
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate (1 credit)' }));
    expect(await screen.findByText('Fresh words')).toBeInTheDocument();
    expect(calls.find((call) => call.path.endsWith('/regenerate'))?.body).toEqual({});
    await waitFor(() => expect(calls.filter((call) => call.path === '/credits/remaining')).toHaveLength(2));
  });

  it('exports the selected images, or the whole library when none is selected, as exported_images.xlsx', async () => {
    mockApi({ ...noBatches, 'GET /images/altText': libraryHandler({ current: makeLibrary(30) }) });
    const blobs: Blob[] = [];
    const createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return 'blob:export';
    };
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(blobs).toHaveLength(1), { timeout: 5000 });
    expect(downloads).toEqual([EXPORT_FILE_NAME]);
    const all = await readSheet(blobs[0]);
    expect(all).toHaveLength(31);
    expect(all[30]).toEqual([30, 'https://example.com/photos/image-30.jpg', 'Alt text 30', 'ai']);

    await user.click(screen.getByRole('checkbox', { name: 'Select image 2' }));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(blobs).toHaveLength(2), { timeout: 5000 });
    expect(await readSheet(blobs[1])).toEqual([
      [...EXPORT_COLUMNS, EXPORT_ORIGIN_COLUMN],
      [1, 'https://example.com/photos/image-2.jpg', 'Alt text 2', 'ai'],
    ]);
  });
});

function blobBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

async function readSheet(data: Blob | ArrayBuffer | undefined) {
  if (!data) throw new Error('No workbook was produced');
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const bytes = data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? data : await blobBytes(data);
  await workbook.xlsx.load(bytes as ArrayBuffer);
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([EXPORT_SHEET_NAME]);
  const sheet = workbook.getWorksheet(EXPORT_SHEET_NAME);
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

describe('progress panel', () => {
  const batchId = '6f9f1c2e-8a4b-4c0e-9a57-1f2d3c4b5a69';
  const batch = (over: Record<string, unknown>) => ({
    id: batchId,
    status: 'processing',
    total: 3,
    completed: 1,
    failed: 0,
    creditsReserved: 3,
    createdAt: '2026-01-01T00:00:00.000Z',
    finishedAt: null,
    failures: [],
    ...over,
  });

  it('follows the batch the previous page started, then refetches the library and says how many failed', async () => {
    const library = { current: makeLibrary(1) };
    let reads = 0;
    mockApi({
      'GET /images/batches': () => json([]),
      'GET /images/altText': libraryHandler(library),
      [`GET /images/batches/${batchId}`]: () => {
        reads += 1;
        if (reads < 2) return json(batch({}));
        library.current = makeLibrary(3);
        return json(batch({ status: 'completed', completed: 2, failed: 1 }));
      },
    });
    const { router } = renderApp('/dashboard');
    await router.navigate('/images', {
      state: {
        batchId,
        message: 'Generating alt text for 3 images. Results are added to your library as they finish.',
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Images' }, { timeout: 5000 });
    expect(await screen.findByText(/Generating alt text for 3 images/)).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Alt text generation progress' });
    expect(await within(panel).findByText('Processing 3 images...')).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    expect(within(panel).getByText('1 of 3 completed')).toBeInTheDocument();
    expect(await within(panel).findByText('3 of 3 completed', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(
      within(panel).getByText(/1 image could not be processed; the credit was refunded/),
    ).toBeInTheDocument();
    expect(within(panel).getByText('Done: 2 added to your library.')).toBeInTheDocument();
    expect(within(panel).getByText('Processing 3 images...')).toBeInTheDocument();
    expect(await screen.findByText('Alt text 3')).toBeInTheDocument();
    await userEvent.setup().click(within(panel).getByRole('button', { name: 'Close progress' }));
    expect(screen.queryByRole('region', { name: 'Alt text generation progress' })).not.toBeInTheDocument();
  });

  it('shows batches still running from GET /images/batches', async () => {
    mockApi({
      'GET /images/batches': () => json([batch({ total: 10, completed: 4, failed: 1 })]),
      'GET /images/altText': libraryHandler({ current: makeLibrary(1) }),
      [`GET /images/batches/${batchId}`]: () => json(batch({ total: 10, completed: 4, failed: 1 })),
    });
    await openLibrary();
    const panel = await screen.findByRole('region', { name: 'Alt text generation progress' });
    expect(await within(panel).findByText('Processing 10 images...')).toBeInTheDocument();
    expect(within(panel).getByText('5 of 10 completed')).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar', { name: /10 images/ })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
  });
});

describe('download with alt text (ADR 064)', () => {
  it('shows each row’s origin and downloads the selected images as a zip; a refusal is said in words', async () => {
    const library = makeLibrary(3).map((row, index) =>
      index === 1 ? { ...row, origin: 'ai-edited' as const } : row,
    );
    let refuse = false;
    const calls = mockApi({
      ...noBatches,
      'GET /images/altText': libraryHandler({ current: library }),
      'POST /images/altText/with-alt.zip': () =>
        refuse
          ? json({ message: 'ExifTool is not installed on this server.', code: 'SERVICE_UNAVAILABLE' }, 503)
          : new Response('PK zip', { headers: { 'Content-Type': 'application/zip' } }),
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
    await openLibrary();
    await screen.findByText('Alt text 1');
    // A small text label in the Alt Text cell; screen readers hear "Origin: …".
    expect([...document.querySelectorAll('td [data-origin]')].map((label) => label.textContent)).toEqual([
      'Origin: AI',
      'Origin: AI, edited',
      'Origin: AI',
    ]);
    const download = screen.getByRole('button', { name: 'Download with alt text' });
    expect(download).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select image 2' }));
    await user.click(download);
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(downloads).toEqual(['images-with-alt-text.zip']);
    expect(calls.find((call) => call.path === '/images/altText/with-alt.zip')?.body).toEqual({
      ids: [library[1]?.id],
    });
    refuse = true;
    await user.click(download);
    expect(await screen.findByText('ExifTool is not installed on this server.')).toBeInTheDocument();
  });
});

describe('export workbook', () => {
  it("adds 'LongDescription' only when an image has one, leaving the others' cell empty", async () => {
    const buffer = await buildExportWorkbook([
      { src: 'https://a.example/chart.png', alt_text: 'Bar chart', longDescription: 'Jan: 1; Feb: 2.' },
      { src: 'https://a.example/2.png', alt_text: 'Two', longDescription: null },
    ]);
    expect(await readSheet(buffer)).toEqual([
      ['Sr No', 'URL', 'AltText', 'LongDescription'],
      [1, 'https://a.example/chart.png', 'Bar chart', 'Jan: 1; Feb: 2.'],
      [2, 'https://a.example/2.png', 'Two'],
    ]);
  });

  it("adds 'Origin' last, after 'LongDescription', when the images carry where their alt came from", async () => {
    const buffer = await buildExportWorkbook([
      {
        src: 'https://a.example/chart.png',
        alt_text: 'Bar chart',
        longDescription: 'Jan: 1.',
        origin: 'ai-edited',
      },
      { src: 'https://a.example/2.png', alt_text: 'Two', origin: 'embedded' },
    ]);
    expect(await readSheet(buffer)).toEqual([
      ['Sr No', 'URL', 'AltText', 'LongDescription', 'Origin'],
      [1, 'https://a.example/chart.png', 'Bar chart', 'Jan: 1.', 'ai-edited'],
      [2, 'https://a.example/2.png', 'Two', undefined, 'embedded'],
    ]);
  });

  it("has one sheet 'Images' with 'Sr No' from 1, 'URL' and 'AltText'", async () => {
    const buffer = await buildExportWorkbook([
      { src: 'https://a.example/1.png', alt_text: 'One' },
      { src: 'https://a.example/2.png', alt_text: '' },
    ]);
    expect(await readSheet(buffer)).toEqual([
      ['Sr No', 'URL', 'AltText'],
      [1, 'https://a.example/1.png', 'One'],
      [2, 'https://a.example/2.png', ''],
    ]);
  });
});

describe('alt text review', () => {
  /** Three images; the 1st and 3rd need review, the 1st with the evidence the engine used. */
  function reviewLibrary() {
    const [first, second, third] = makeLibrary(3) as [LibraryImage, LibraryImage, LibraryImage];
    return [
      {
        ...first,
        confidence: 0.31,
        needsReview: true,
        reasons: [
          { source: 'caption', detail: 'Harbour at dusk' },
          { source: 'detection', detail: 'boat', score: 0.424 },
        ],
      },
      second,
      { ...third, confidence: 0.2, needsReview: true },
    ];
  }

  /** The library handler, honouring ?needsReview=true like the server, and approve clearing the flag. */
  function reviewHandlers(library: { current: LibraryImage[] }) {
    return {
      ...noBatches,
      'GET /images/altText': (call: MockCall) => {
        const only = call.query.get('needsReview') === 'true';
        const rows = only ? library.current.filter((image) => image.needsReview) : library.current;
        return libraryHandler({ current: rows })(call);
      },
      ...Object.fromEntries(
        library.current.map((image) => [
          `POST /images/altText/${image.id}/approve`,
          () => {
            library.current = library.current.map((row) =>
              row.id === image.id ? { ...row, needsReview: false } : row,
            );
            return json(library.current.find((row) => row.id === image.id));
          },
        ]),
      ),
    };
  }

  /** The toast of an approval (an earlier test's may still be showing, so there can be two). */
  const expectApprovedToast = async () => {
    const toasts = await screen.findByRole('region', { name: 'Notifications (top right)' });
    expect(await within(toasts).findAllByText('Alt text approved')).not.toHaveLength(0);
  };

  const rowOf = (number: number) => {
    const table = screen.getByRole('table', { name: 'Your images and their alt text' });
    const box = within(table).getByRole('checkbox', { name: `Select image ${number}` });
    const row = box.closest('tr');
    if (!row) throw new Error('no row');
    return within(row);
  };

  it('marks the rows needing review with a Review badge and an Approve button', async () => {
    mockApi(reviewHandlers({ current: reviewLibrary() }));
    await openLibrary();
    await screen.findByText('Alt text 1');
    expect(rowOf(1).getByText(/^Review/)).toHaveTextContent(
      'Review: this alt text needs review (the generator was 31% sure)',
    );
    expect(rowOf(1).getByRole('button', { name: 'Approve alt text for image 1' })).toBeEnabled();
    expect(rowOf(2).queryByText(/this alt text needs review/)).not.toBeInTheDocument();
    expect(rowOf(2).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    expect(rowOf(3).getByText(/this alt text needs review/)).toBeInTheDocument();
  });

  it("'Needs review only' lists only the flagged images from page 1, and says when there are none", async () => {
    const library = { current: reviewLibrary() };
    const calls = mockApi(reviewHandlers(library));
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 2');
    const filter = screen.getByRole('checkbox', { name: 'Needs review only' });
    expect(filter).not.toBeChecked();
    expect(calls.find((call) => call.path === '/images/altText')?.query.has('needsReview')).toBe(false);
    await user.click(filter);
    await waitFor(() => expect(screen.queryByText('Alt text 2')).not.toBeInTheDocument());
    expect(screen.getByText('Alt text 1')).toBeInTheDocument();
    expect(screen.getByText('Alt text 3')).toBeInTheDocument();
    expect(calls.at(-1)?.query.get('needsReview')).toBe('true');
    expect(calls.at(-1)?.query.get('page')).toBe('1');

    // Approving both empties the filtered list.
    await user.click(screen.getByRole('button', { name: 'Approve alt text for image 1' }));
    await waitFor(() => expect(screen.queryByText('Alt text 1')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Approve alt text for image 1' }));
    expect(await screen.findByText(noneNeedReview)).toBeInTheDocument();
    // The filter stays, so the person can turn it off again.
    await user.click(screen.getByRole('checkbox', { name: 'Needs review only' }));
    expect(await screen.findByText('Alt text 2')).toBeInTheDocument();
  });

  it('Approve on a row clears the flag: the badge and the button go', async () => {
    const calls = mockApi(reviewHandlers({ current: reviewLibrary() }));
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(rowOf(1).getByRole('button', { name: 'Approve alt text for image 1' }));
    await expectApprovedToast();
    await waitFor(() => expect(rowOf(1).queryByText(/this alt text needs review/)).not.toBeInTheDocument());
    expect(rowOf(1).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    expect(rowOf(3).getByText(/this alt text needs review/)).toBeInTheDocument();
    expect(calls.filter((call) => call.path.endsWith('/approve'))).toHaveLength(1);
  });

  it('the edit dialog shows the confidence and the evidence with scores as percentages, and approves', async () => {
    mockApi(reviewHandlers({ current: reviewLibrary() }));
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 1');
    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alt text for image 1' });
    const why = within(dialog).getByRole('region', { name: 'Evidence and confidence' });
    expect(why).toHaveTextContent('Confidence: 31% — needs review');
    expect(
      within(why)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Caption: Harbour at dusk', 'Detected object: boat (42%)']);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await expectApprovedToast();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(rowOf(1).queryByText(/this alt text needs review/)).not.toBeInTheDocument());

    // An image that needs no review: its confidence and no Approve button.
    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 2' }));
    const second = await screen.findByRole('dialog', { name: 'Edit alt text for image 2' });
    expect(within(second).getByText('Confidence: 90%')).toBeInTheDocument();
    expect(within(second).getByText('No evidence was recorded for this alt text.')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('shows an image that needs words without an alt, with its reason, no Approve and a disabled copy', async () => {
    const [first, ...rest] = reviewLibrary();
    const waiting: LibraryImage = {
      ...(first as LibraryImage),
      alt_text: '',
      needsReview: true,
      needsWords: true,
      needsWordsReason: 'Nothing in the image or around it says what it shows.',
      publishable: false,
    };
    mockApi(reviewHandlers({ current: [waiting, ...rest] }));
    const user = userEvent.setup();
    await openLibrary();
    await screen.findByText('Alt text 2');
    expect(
      rowOf(1)
        .getByText(/^No alt text yet\./)
        .closest('p'),
    ).toHaveTextContent('No alt text yet. Nothing in the image or around it says what it shows.');
    expect(rowOf(1).getByText(/^Needs your words/)).toHaveTextContent(
      'Needs your words: the generator found nothing it could stand behind for this image',
    );
    expect(rowOf(1).queryByText(/this alt text needs review/)).not.toBeInTheDocument();
    expect(rowOf(1).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    expect(rowOf(1).getByRole('button', { name: 'Copy alt text for image 1' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Edit alt text for image 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alt text for image 1' });
    const guide = within(dialog).getByRole('region', { name: 'Needs your words' });
    expect(guide).toHaveTextContent('Nothing in the image or around it says what it shows.');
    expect(
      within(guide)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['What is it for?', 'Is there text in it?', 'What would a visitor miss?']);
    expect(within(dialog).getByLabelText('Alt text')).toHaveValue('');
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await expectNoAxeViolations(dialog);
  });
});
