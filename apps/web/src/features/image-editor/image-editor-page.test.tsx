import { MAX_EDITOR_IMAGE_BYTES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { deferred, findToast, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = messages.editor;

const photo = () => new File([new Uint8Array(64)], 'coffee.jpg', { type: 'image/jpeg' });
const edited = {
  success: true,
  editedImage: { url: '/files/studio/edited.png' },
  creditsCharged: 25,
  remainingCredits: 5,
  operations: ['greyscale'],
  engine: 'offline',
  model: 'altwise-sharp-editor-1',
};

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  notify.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openEditor() {
  storeSession('jwt-1');
  const view = renderApp('/caption-generator');
  await screen.findByRole('heading', { level: 1, name: 'AI Image Editor' }, { timeout: 5000 });
  return view;
}

/** The multipart body fetch was given for `path`. */
function formSentTo(path: string): FormData {
  const call = vi.mocked(fetch).mock.calls.find(([input]) => String(input).endsWith(path));
  const body = call?.[1]?.body;
  if (!(body instanceof FormData)) throw new Error(`no multipart call to ${path}`);
  return body;
}

const edits = (calls: ReturnType<typeof mockApi>) => calls.filter((c) => c.path === '/images/edit-image');

describe('AI Image Editor (/caption-generator)', () => {
  it('asks for an image, then a prompt, in the words of the product spec §5 and sends nothing', async () => {
    const calls = mockApi({ 'GET /credits/remaining': () => json({ success: true, imageCredits: 100 }) });
    const user = userEvent.setup();
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Edit Image' }));
    expect(await findToast(m.selectImage)).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Image to edit'), photo());
    await user.click(screen.getByRole('button', { name: 'Edit Image' }));
    expect(await findToast(m.enterPrompt)).toBeInTheDocument();
    expect(edits(calls)).toEqual([]);
    // Both previews have alt text; the original shows at once.
    expect(screen.getByRole('img', { name: 'Original upload: coffee.jpg' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
  });

  it('refuses an image of 10MB or more', async () => {
    mockApi({ 'GET /credits/remaining': () => json({ success: true, imageCredits: 100 }) });
    const user = userEvent.setup();
    await openEditor();
    const big = photo();
    Object.defineProperty(big, 'size', { value: MAX_EDITOR_IMAGE_BYTES + 1 });
    await user.upload(screen.getByLabelText('Image to edit'), big);
    expect(await findToast(m.imageTooLarge)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Original upload/ })).not.toBeInTheDocument();
  });

  it('shows each quality with its credit cost, high by default, and checks the balance before sending', async () => {
    const calls = mockApi({ 'GET /credits/remaining': () => json({ success: true, imageCredits: 8 }) });
    const user = userEvent.setup();
    await openEditor();
    const quality = screen.getByLabelText('Quality');
    expect(quality).toHaveValue('high');
    expect(screen.getByRole('option', { name: 'High — 25 credits' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Medium — 10 credits' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Low — 5 credits' })).toBeInTheDocument();
    await screen.findByText('Credits remaining: 8');

    await user.upload(screen.getByLabelText('Image to edit'), photo());
    await user.type(screen.getByLabelText('Edit prompt'), 'make it black and white');
    await user.selectOptions(quality, 'medium');
    await user.click(screen.getByRole('button', { name: 'Edit Image' }));
    expect(await findToast(m.notEnoughCredits(10, 'medium', 8))).toBeInTheDocument();
    expect(
      screen.getByText('You need 10 credits for a medium quality edit. You have 8 credits.'),
    ).toBeVisible();
    expect(edits(calls)).toEqual([]);
  });

  it('sends the image, prompt and quality, shows progress, the result and the success toast, and never calls deduct', async () => {
    const answer = deferred<Response>();
    let balance = 30;
    const calls = mockApi({
      'GET /credits/remaining': () => json({ success: true, imageCredits: balance }),
      'POST /images/edit-image': () => answer.promise,
    });
    const user = userEvent.setup();
    await openEditor();
    await screen.findByText('Credits remaining: 30');
    await user.upload(screen.getByLabelText('Image to edit'), photo());
    await user.type(screen.getByLabelText('Edit prompt'), 'make it black and white');
    await user.click(screen.getByRole('button', { name: 'Edit Image' }));

    expect(await screen.findByRole('progressbar', { name: 'Editing your image' })).toBeInTheDocument();
    const form = formSentTo('/images/edit-image');
    expect(form.get('prompt')).toBe('make it black and white');
    expect(form.get('quality')).toBe('high');
    expect(form.get('userId')).toBe('u1');
    expect((form.get('image') as File).name).toBe('coffee.jpg');
    expect(edits(calls)[0]?.headers.get('Authorization')).toBe('Bearer jwt-1');

    balance = 5;
    answer.resolve(json(edited));
    expect(await findToast(m.success)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Edited result: greyscale' })).toHaveAttribute(
      'src',
      '/files/studio/edited.png',
    );
    // The spend refetches the balance; the browser never asks for a deduct or refund of its own.
    expect(await screen.findByText('Credits remaining: 5')).toBeInTheDocument();
    expect(
      calls.some((c) => c.path.startsWith('/credits/deduct') || c.path.startsWith('/credits/refund')),
    ).toBe(false);
  });

  it("says why an edit failed with the server's message", async () => {
    mockApi({
      'GET /credits/remaining': () => json({ success: true, imageCredits: 30 }),
      'POST /images/edit-image': () =>
        json({ message: 'The editor cannot do "paint a dragon"', code: 'UNPROCESSABLE' }, 422),
    });
    const user = userEvent.setup();
    await openEditor();
    await user.upload(screen.getByLabelText('Image to edit'), photo());
    await user.type(screen.getByLabelText('Edit prompt'), 'paint a dragon');
    await user.click(screen.getByRole('button', { name: 'Edit Image' }));
    expect(await findToast(m.failed('The editor cannot do "paint a dragon"'))).toBeInTheDocument();
    // It stays on the page too (the toast closes after 5 s; the message may list what the editor can do).
    expect(screen.getAllByText(m.failed('The editor cannot do "paint a dragon"'))).toHaveLength(2);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('downloads the edited image as edited-image.png, and says so when there is nothing or it fails', async () => {
    let fileAnswer = () => new Response(new Blob(['png'], { type: 'image/png' }));
    mockApi({
      'GET /credits/remaining': () => json({ success: true, imageCredits: 30 }),
      'POST /images/edit-image': () => json(edited),
      'GET /files/studio/edited.png': () => fileAnswer(),
    });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Download Edited Image' }));
    expect(await findToast(m.editFirst)).toBeInTheDocument();

    await user.upload(screen.getByLabelText('Image to edit'), photo());
    await user.type(screen.getByLabelText('Edit prompt'), 'make it black and white');
    await user.click(screen.getByRole('button', { name: 'Edit Image' }));
    await findToast(m.success);
    await user.click(screen.getByRole('button', { name: 'Download Edited Image' }));
    await waitFor(() => expect(saved).toEqual(['edited-image.png']));

    fileAnswer = () => new Response('gone', { status: 404 });
    await user.click(screen.getByRole('button', { name: 'Download Edited Image' }));
    expect(await findToast(m.downloadFailed)).toBeInTheDocument();
    expect(saved).toHaveLength(1);
  });

  it('writes a styled caption for the image and shows it with a copy button', async () => {
    mockApi({
      'GET /credits/remaining': () => json({ success: true, imageCredits: 3 }),
      'POST /images/generate-styled-caption': () =>
        json({
          success: true,
          captionedImage: { url: '/files/studio/captioned.png' },
          caption: 'Morning fuel ☕',
          creditsCharged: 1,
          remainingCredits: 2,
          engine: 'offline',
          model: 'altwise-captioner-1',
        }),
    });
    const user = userEvent.setup();
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Generate Caption' }));
    expect(await findToast(m.selectImage)).toBeInTheDocument();

    await user.upload(screen.getByLabelText('Image to edit'), photo());
    await user.type(screen.getByLabelText('Caption tone (optional)'), 'cosy');
    await user.click(screen.getByRole('button', { name: 'Generate Caption' }));
    expect(await screen.findByTestId('caption-text')).toHaveTextContent('Morning fuel ☕');
    expect(formSentTo('/images/generate-styled-caption').get('prompt')).toBe('cosy');
    expect(
      screen.getByRole('img', { name: 'Your upload with the caption: Morning fuel ☕' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy caption' }));
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe('Morning fuel ☕');
    expect(await findToast('Caption copied!')).toBeInTheDocument();
  });

  it('lists what the offline editor understands', async () => {
    mockApi({ 'GET /credits/remaining': () => json({ success: true, imageCredits: 3 }) });
    await openEditor();
    for (const name of [
      'Black and white',
      'Sepia',
      'Blur',
      'Sharpen',
      'Contrast',
      'Crop',
      'Resize',
      'Border',
    ]) {
      expect(screen.getByText(name)).toBeInTheDocument();
    }
  });
});
