import type { BatchProgress } from '@altwise/contracts/generation';
import { batchStartedMessage } from '@altwise/contracts/generation';
import { UPLOAD_REDIRECT_DELAY_MS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSyncExternalStore } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { ApiError } from '../../lib/api-error.ts';
import { findToast, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = messages.upload;

/** The batch's progress as the test decides it; the page reads it through the mocked hook. */
const batch = {
  state: { progress: undefined as BatchProgress | undefined, error: null as Error | null },
  ids: [] as (string | null)[],
  listeners: new Set<() => void>(),
  set(progress: BatchProgress | undefined, error: Error | null = null) {
    this.state = { progress, error };
    for (const listener of this.listeners) listener();
  },
};

vi.mock('./api/batch-progress.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./api/batch-progress.ts')>();
  return {
    ...original,
    useBatchProgress: (batchId: string | null) => {
      batch.ids.push(batchId);
      const state = useSyncExternalStore(
        (listener) => {
          batch.listeners.add(listener);
          return () => batch.listeners.delete(listener);
        },
        () => batch.state,
      );
      return batchId ? state : { progress: undefined, error: null };
    },
  };
});

/** A stand-in XMLHttpRequest: records each request; the test sends progress and the answer. */
class FakeXhr {
  static requests: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: ProgressEvent) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  abort() {
    this.onabort?.();
  }
  sendProgress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent));
  }
  respond(status: number, body: unknown) {
    act(() => {
      this.upload.onload?.();
      this.status = status;
      this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
      this.onload?.();
    });
  }
}

beforeEach(() => {
  FakeXhr.requests = [];
  batch.ids = [];
  batch.state = { progress: undefined, error: null };
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  notify.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const image = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
const credits = (n: number) => ({ 'GET /credits/remaining': () => json({ success: true, imageCredits: n }) });

async function openUpload(remaining = 10) {
  const calls = mockApi(credits(remaining));
  storeSession('jwt-1');
  const view = renderApp('/upload-images');
  await screen.findByRole('heading', { level: 1, name: 'Upload Images' }, { timeout: 5000 });
  await waitFor(() => expect(screen.getByText(/Remaining credits/)).toHaveTextContent(String(remaining)));
  return { ...view, calls };
}

const picker = () => screen.getByLabelText('Choose images');
const generateButton = () => screen.getByRole('button', { name: 'Generate Alt Text' });

const progressOf = (over: Partial<BatchProgress>): BatchProgress => ({
  id: 'b-9',
  status: 'processing',
  total: 2,
  completed: 0,
  failed: 0,
  creditsReserved: 2,
  createdAt: '2026-11-22T10:00:00.000Z',
  finishedAt: null,
  failures: [],
  ...over,
});

const started = {
  success: true,
  message: batchStartedMessage(2),
  batchId: 'b-9',
  total: 2,
  creditsReserved: 2,
  remainingCredits: 8,
  status: 'queued',
};

describe('upload images (/upload-images)', () => {
  it('shows the labelled picker, the drop zone text, an empty list, the prompt, the note, and Generate disabled', async () => {
    await openUpload();
    expect(picker()).toHaveAttribute('type', 'file');
    expect(picker()).toHaveAttribute('multiple');
    expect(picker()).toHaveAttribute('accept', 'image/*');
    expect(screen.getByText('Drag and drop images here')).toBeInTheDocument();
    expect(screen.getByText('No files selected yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('Custom prompt (optional)')).toBeInTheDocument();
    expect(screen.getByText(/processed in the background/)).toHaveTextContent(
      /unsupported or they are over 5MB/,
    );
    expect(generateButton()).toBeDisabled();
  });

  it('drops files over 5MB (5,242,880 bytes) with a 10 s toast naming them, keeps the rest, and removes a file', async () => {
    const user = userEvent.setup();
    await openUpload();
    await user.upload(picker(), [
      image('a.jpg'),
      image('exactly-5mb.jpg', 5_242_880),
      image('huge.jpg', 5_242_881),
      image('big.jpg', 6_000_000),
    ]);
    const toast = await findToast(`${m.oversize}: huge.jpg, big.jpg`);
    expect(toast).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Selected files (2)' })).toBeInTheDocument();
    expect(screen.getByText('a.jpg')).toBeInTheDocument();
    expect(screen.getByText('exactly-5mb.jpg')).toBeInTheDocument();
    expect(screen.queryByText('huge.jpg')).not.toBeInTheDocument();
    expect(generateButton()).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Remove a.jpg' }));
    expect(screen.queryByText('a.jpg')).not.toBeInTheDocument();
    expect(picker()).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Remove exactly-5mb.jpg' }));
    expect(generateButton()).toBeDisabled();
  });

  it('the oversize toast stays for 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openUpload();
    await user.upload(picker(), [image('big.jpg', 6_000_000)]);
    expect(await findToast(`${m.oversize}: big.jpg`)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(9000));
    expect(screen.getAllByText(`${m.oversize}: big.jpg`).length).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(1500));
    await waitFor(() => expect(screen.queryAllByText(`${m.oversize}: big.jpg`)).toHaveLength(0));
  });

  it('takes dropped files the same way', async () => {
    await openUpload();
    const zone = screen.getByText('Drag and drop images here').parentElement as HTMLElement;
    fireEvent.drop(zone, {
      dataTransfer: { files: [image('dropped.png'), image('too-big.png', 6_000_000)] },
    });
    expect(await screen.findByText('dropped.png')).toBeInTheDocument();
    expect(await findToast(`${m.oversize}: too-big.png`)).toBeInTheDocument();
  });

  it('re-checks sizes on Generate and sends nothing', async () => {
    const user = userEvent.setup();
    await openUpload();
    const file = image('grew.jpg');
    await user.upload(picker(), [file]);
    // A file that is over the limit by the time it is sent (the picked file changed).
    Object.defineProperty(file, 'size', { value: 6_000_000 });
    await user.click(generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(m.oversizeRecheck);
    expect(FakeXhr.requests).toEqual([]);
  });

  it('refuses more images than the remaining credits without sending', async () => {
    const user = userEvent.setup();
    await openUpload(2);
    await user.upload(picker(), [image('1.jpg'), image('2.jpg'), image('3.jpg')]);
    await user.click(generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.scrape.tooFewCredits(2));
    expect(FakeXhr.requests).toEqual([]);
  });

  it('unknown credits: asks to refresh and sends nothing', async () => {
    mockApi({
      'GET /credits/remaining': () => json({ message: 'Server error', code: 'INTERNAL_ERROR' }, 500),
    });
    storeSession('jwt-1');
    const user = userEvent.setup();
    renderApp('/upload-images');
    await screen.findByRole('heading', { level: 1, name: 'Upload Images' }, { timeout: 5000 });
    await waitFor(() => expect(screen.getByText(/Remaining credits/)).toHaveTextContent('Unavailable'), {
      timeout: 5000,
    });
    await user.upload(picker(), [image('1.jpg')]);
    await user.click(generateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.scrape.unknownCredits);
    expect(FakeXhr.requests).toEqual([]);
  });

  it('shows real progress: bytes sent, then the batch’s images, 100% when it finishes, then /images', async () => {
    const user = userEvent.setup();
    const { router, calls } = await openUpload(10);
    await user.upload(picker(), [image('one.jpg'), image('two.jpg')]);
    await user.type(screen.getByLabelText('Custom prompt (optional)'), '  Short and plain  ');
    await user.click(generateButton());

    expect(await screen.findByRole('heading', { name: 'Processing Your Images' })).toBeInTheDocument();
    const request = FakeXhr.requests[0];
    if (!request) throw new Error('no upload sent');
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/images/upload-and-generate');
    expect(request.headers.Authorization).toBe('Bearer jwt-1');
    expect(request.body?.getAll('images').map((f) => (f as File).name)).toEqual(['one.jpg', 'two.jpg']);
    expect(request.body?.get('userId')).toBe('u1');
    expect(request.body?.get('chatGptPrompt')).toBe('Short and plain');

    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByText('0 of 2 images processed')).toBeInTheDocument();
    request.sendProgress(500, 1000);
    expect(bar).toHaveAttribute('aria-valuenow', '13');
    expect(screen.getByText('13%')).toBeInTheDocument();

    const creditReads = calls.filter((c) => c.path === '/credits/remaining').length;
    request.respond(200, started);
    await waitFor(() => expect(batch.ids).toContain('b-9'));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/credits/remaining').length).toBeGreaterThan(creditReads),
    );

    act(() => batch.set(progressOf({ completed: 1 })));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '63');
    expect(screen.getByText('1 of 2 images processed')).toBeInTheDocument();
    act(() => batch.set(progressOf({ completed: 1, failed: 1 })));
    // Every image has ended but the batch has not said it is finished: not 100% yet.
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '99');

    act(() =>
      batch.set(
        progressOf({
          status: 'completed',
          completed: 1,
          failed: 1,
          failures: [{ src: 'two.jpg', error: 'Unsupported image type' }],
        }),
      ),
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByText('100%')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/upload-images');
    await waitFor(() => expect(router.state.location.pathname).toBe('/images'), {
      timeout: UPLOAD_REDIRECT_DELAY_MS + 2000,
    });
    expect(router.state.location.state).toEqual({
      batchId: 'b-9',
      message: 'Alt text generated for 1 of 2 images. 1 could not be processed and its credit was refunded.',
    });
  });

  it('a failed upload resets the progress and shows the server’s message, else the product spec’s, in red', async () => {
    const user = userEvent.setup();
    await openUpload();
    await user.upload(picker(), [image('one.jpg')]);
    await user.click(generateButton());
    FakeXhr.requests[0]?.sendProgress(900, 1000);
    FakeXhr.requests[0]?.respond(402, { message: 'Insufficient credits', code: 'PAYMENT_REQUIRED' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Insufficient credits');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('one.jpg')).toBeInTheDocument();

    await user.click(generateButton());
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    FakeXhr.requests[1]?.respond(502, '<html>Bad gateway</html>');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(m.failed));
    expect(screen.getByRole('alert').className).toMatch(/red/);

    await user.click(generateButton());
    act(() => FakeXhr.requests[2]?.onerror?.());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(m.failed));
  });

  it('a batch where every image failed is a failure with the reasons (all refunded by the server)', async () => {
    const user = userEvent.setup();
    const { router } = await openUpload();
    await user.upload(picker(), [image('one.jpg')]);
    await user.click(generateButton());
    FakeXhr.requests[0]?.respond(200, { ...started, total: 1, creditsReserved: 1 });
    await waitFor(() => expect(batch.ids).toContain('b-9'));
    act(() =>
      batch.set(
        progressOf({
          status: 'failed',
          total: 1,
          failed: 1,
          failures: [{ src: 'one.jpg', error: 'The file is not a supported image' }],
        }),
      ),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.failed);
    expect(alert).toHaveTextContent('The file is not a supported image');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/upload-images');
  });

  it('a batch that cannot be followed from here (gone, not ours) hands over to the library', async () => {
    const user = userEvent.setup();
    const { router } = await openUpload();
    await user.upload(picker(), [image('one.jpg'), image('two.jpg')]);
    await user.click(generateButton());
    FakeXhr.requests[0]?.respond(202, started);
    await waitFor(() => expect(batch.ids).toContain('b-9'));
    act(() =>
      batch.set(undefined, new ApiError({ status: 404, code: 'NOT_FOUND', message: 'No such batch' })),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/images'));
    expect(router.state.location.state).toEqual({ batchId: 'b-9', message: batchStartedMessage(2) });
  });
});
