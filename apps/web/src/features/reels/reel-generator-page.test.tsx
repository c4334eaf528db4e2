import { MAX_MUSIC_BYTES, MAX_REEL_IMAGE_BYTES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { findToast, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = messages.reel;

const photo = (name: string, size?: number) => {
  const file = new File([new Uint8Array(64)], name, { type: 'image/jpeg' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};
const song = (size?: number) => {
  const file = new File([new Uint8Array(64)], 'song.mp3', { type: 'audio/mpeg' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};
const captionAnswer = (n: number) =>
  json({
    success: true,
    captionedImage: { url: `/files/studio/captioned-${n}.png` },
    caption: `Caption ${n}`,
    creditsCharged: 1,
    remainingCredits: 10 - n,
    engine: 'offline',
    model: 'altwise-captioner-1',
  });
const credits = (n: number) => ({ 'GET /credits/remaining': () => json({ success: true, imageCredits: n }) });

beforeEach(() => {
  let next = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${next++}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  notify.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openReels() {
  storeSession('jwt-1');
  const view = renderApp('/reel-generator');
  await screen.findByRole('heading', { level: 1, name: 'AI Reel Generator' }, { timeout: 5000 });
  return view;
}

/** Every multipart body fetch was given for `path`. */
function formsSentTo(path: string): FormData[] {
  return vi
    .mocked(fetch)
    .mock.calls.filter(([input]) => String(input).endsWith(path))
    .map(([, init]) => init?.body)
    .filter((body): body is FormData => body instanceof FormData);
}

async function chooseUploadMode(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('radio', { name: 'Upload Images' }));
  expect(screen.getByRole('radio', { name: 'Upload Images' })).toBeChecked();
  expect(screen.getByRole('radio', { name: 'Generate Images from Text' })).not.toBeChecked();
}

describe('AI Reel Generator (/reel-generator): generating images from text', () => {
  it('asks for a prompt, checks the credits of quality × count, and sends nothing', async () => {
    const calls = mockApi(credits(20));
    const user = userEvent.setup();
    await openReels();
    expect(screen.getByRole('radio', { name: 'Generate Images from Text' })).toBeChecked();
    // The action is the only button of its name (the source choice is a radio group).
    expect(screen.getAllByRole('button', { name: /Generate Images/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Generate Images' }));
    expect(await findToast(m.promptRequired)).toBeInTheDocument();

    await screen.findByText('Credits remaining: 20');
    await user.type(screen.getByLabelText('Text prompt'), 'coffee facts');
    await user.selectOptions(screen.getByLabelText('Number of images'), '3');
    await user.selectOptions(screen.getByLabelText('Quality'), 'medium');
    await user.click(screen.getByRole('button', { name: 'Generate Images' }));
    expect(await findToast(m.notEnoughCredits(30, 20))).toBeInTheDocument();
    expect(screen.getByText('Not enough credits. You need 30 credits but have 20')).toBeVisible();
    expect(calls.filter((c) => c.path === '/images/generate')).toEqual([]);
  });

  it('generates images, shows the honest notice, and makes the reel from them', async () => {
    const calls = mockApi({
      ...credits(100),
      'POST /images/generate': () =>
        json({
          success: true,
          images: [{ url: '/files/studio/slide-1.png' }, { url: '/files/studio/slide-2.png' }],
          creditsCharged: 10,
          remainingCredits: 90,
          typographic: true,
          notice: 'Made offline: typographic slides of your prompt, not pictures.',
          engine: 'offline',
          model: 'altwise-slides-1',
        }),
      'POST /images/createReels': () => new Response(new Blob(['mp4'], { type: 'video/mp4' })),
    });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    await openReels();
    await user.type(screen.getByLabelText('Text prompt'), 'coffee facts');
    await user.selectOptions(screen.getByLabelText('Number of images'), '2');
    await user.selectOptions(screen.getByLabelText('Quality'), 'low');
    await user.click(screen.getByRole('button', { name: 'Generate Images' }));
    expect(await findToast(m.generated(2))).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/images/generate')?.body).toEqual({
      prompt: 'coffee facts',
      numberOfImages: 2,
      quality: 'low',
      userId: 'u1',
    });
    expect(screen.getByText('Made offline: typographic slides of your prompt, not pictures.')).toBeVisible();
    expect(screen.getByRole('img', { name: 'Text slide 1 of 2: coffee facts' })).toBeInTheDocument();

    const create = screen.getByRole('button', { name: 'Create & Download Reel' });
    expect(create).toBeDisabled();
    await user.upload(screen.getByLabelText('Music'), song());
    expect(create).toBeEnabled();
    await user.click(create);
    expect(await findToast(m.reelDone)).toBeInTheDocument();
    expect(saved).toEqual(['reel.mp4']);
    const [form] = formsSentTo('/images/createReels');
    expect(form?.getAll('images')).toEqual(['/files/studio/slide-1.png', '/files/studio/slide-2.png']);
    expect(form?.get('skipCaptioning')).toBe('true');
    expect((form?.get('audioFile') as File | undefined)?.name).toBe('song.mp3');
  });

  it('says why generation failed and that the server refunded the credits', async () => {
    mockApi({
      ...credits(100),
      'POST /images/generate': () =>
        // The server says, by a flag, that it gave the credits back.
        json({ message: 'The image provider is unavailable', code: 'ENGINE_FAILED', refunded: true }, 502),
    });
    const user = userEvent.setup();
    await openReels();
    await user.type(screen.getByLabelText('Text prompt'), 'coffee facts');
    await user.click(screen.getByRole('button', { name: 'Generate Images' }));
    expect(await findToast(m.generateFailedWith('The image provider is unavailable'))).toBeInTheDocument();
    expect(await findToast(m.refunded)).toBeInTheDocument();
  });

  it('claims a refund only when the server says so, not from the status or the message', async () => {
    mockApi({
      ...credits(100),
      'POST /images/generate': () =>
        json({ message: 'Your credits were refunded, or were they?', code: 'INTERNAL_ERROR' }, 500),
    });
    const user = userEvent.setup();
    await openReels();
    await user.type(screen.getByLabelText('Text prompt'), 'coffee facts');
    await user.click(screen.getByRole('button', { name: 'Generate Images' }));
    expect(
      await findToast(m.generateFailedWith('Your credits were refunded, or were they?')),
    ).toBeInTheDocument();
    expect(screen.queryByText(m.refunded)).not.toBeInTheDocument();
  });

  it('does not claim a refund when the server refused before charging', async () => {
    mockApi({
      ...credits(100),
      'POST /images/generate': () =>
        json({ message: 'Insufficient credits', code: 'INSUFFICIENT_CREDITS' }, 402),
    });
    const user = userEvent.setup();
    await openReels();
    await user.type(screen.getByLabelText('Text prompt'), 'coffee facts');
    await user.click(screen.getByRole('button', { name: 'Generate Images' }));
    expect(await findToast(m.generateFailedWith('Insufficient credits'))).toBeInTheDocument();
    expect(screen.queryByText(m.refunded)).not.toBeInTheDocument();
  });
});

describe('AI Reel Generator (/reel-generator): uploaded images', () => {
  it('refuses more than 5 images and images of more than 10MB, and music of more than 10MB', async () => {
    mockApi(credits(10));
    const user = userEvent.setup();
    await openReels();
    await chooseUploadMode(user);
    const input = screen.getByLabelText('Images');
    await user.upload(
      input,
      ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => photo(`${n}.jpg`)),
    );
    expect(await findToast(m.maxImages)).toBeInTheDocument();
    expect(screen.getByText('No images selected yet.')).toBeVisible();

    await user.upload(input, [photo('small.jpg'), photo('huge.jpg', MAX_REEL_IMAGE_BYTES + 1)]);
    expect(await findToast(m.imageTooLarge('huge.jpg'))).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Upload 1: small.jpg' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /huge/ })).not.toBeInTheDocument();

    await user.upload(screen.getByLabelText('Music'), song(MAX_MUSIC_BYTES + 1));
    expect(await findToast(m.musicTooLarge)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create & Download Reel' })).toBeDisabled();
  });

  it('asks for images before captioning and checks one credit per image', async () => {
    const calls = mockApi(credits(1));
    const user = userEvent.setup();
    await openReels();
    await chooseUploadMode(user);
    await user.click(screen.getByRole('button', { name: 'Generate Captions' }));
    expect(await findToast(m.selectImages)).toBeInTheDocument();
    await screen.findByText('Credits remaining: 1');
    await user.upload(screen.getByLabelText('Images'), [photo('a.jpg'), photo('b.jpg')]);
    await user.click(screen.getByRole('button', { name: 'Generate Captions' }));
    expect(await findToast(m.notEnoughCredits(2, 1))).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/images/generate-styled-caption')).toEqual([]);
  });

  it('captions each image with its own call, enables the Captioned tab and makes the reel from the captioned images', async () => {
    let n = 0;
    const calls = mockApi({
      ...credits(10),
      'POST /images/generate-styled-caption': () => captionAnswer(++n),
      'POST /images/createReels': () => new Response(new Blob(['mp4'], { type: 'video/mp4' })),
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    await openReels();
    await chooseUploadMode(user);
    const tabs = screen.getByRole('tablist', { name: 'Images for the reel' });
    expect(within(tabs).getByRole('tab', { name: 'Original Images' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(within(tabs).getByRole('tab', { name: 'Captioned Images' })).toBeDisabled();

    await user.upload(screen.getByLabelText('Images'), [photo('a.jpg'), photo('b.jpg')]);
    await user.type(screen.getByLabelText('Caption prompt (optional)'), 'upbeat');
    await user.click(screen.getByRole('button', { name: 'Generate Captions' }));
    expect(await findToast(m.captionsDone)).toBeInTheDocument();
    const forms = formsSentTo('/images/generate-styled-caption');
    expect(forms.map((form) => (form.get('image') as File).name)).toEqual(['a.jpg', 'b.jpg']);
    expect(forms.map((form) => form.get('prompt'))).toEqual(['upbeat', 'upbeat']);
    // The batch's spend refetches the balance.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/credits/remaining').length).toBeGreaterThan(1),
    );

    const captionedTab = within(tabs).getByRole('tab', { name: 'Captioned Images' });
    expect(captionedTab).toBeEnabled();
    await user.upload(screen.getByLabelText('Music'), song());
    // Arrow keys move between the tabs.
    within(tabs).getByRole('tab', { name: 'Original Images' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(captionedTab).toHaveAttribute('aria-selected', 'true');
    expect(captionedTab).toHaveFocus();
    expect(screen.getByRole('img', { name: 'a.jpg with the caption: Caption 1' })).toBeInTheDocument();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Caption 2');

    await user.click(screen.getByRole('button', { name: 'Create & Download Reel' }));
    expect(await findToast(m.reelDone)).toBeInTheDocument();
    const [reel] = formsSentTo('/images/createReels');
    expect(reel?.getAll('images')).toEqual([
      '/files/studio/captioned-1.png',
      '/files/studio/captioned-2.png',
    ]);
  });

  it('says how many credits came back when some captions fail, and when all fail', async () => {
    let n = 0;
    mockApi({
      ...credits(10),
      'POST /images/generate-styled-caption': () =>
        ++n === 2
          ? json({ message: 'The caption model failed', code: 'ENGINE_FAILED', refunded: true }, 502)
          : captionAnswer(n),
    });
    const user = userEvent.setup();
    await openReels();
    await chooseUploadMode(user);
    await user.upload(screen.getByLabelText('Images'), [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]);
    await user.click(screen.getByRole('button', { name: 'Generate Captions' }));
    expect(await findToast(m.refundedCaptions(1))).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Captioned Images' })).toBeEnabled();

    vi.unstubAllGlobals();
    notify.clear();
    mockApi({
      ...credits(10),
      'POST /images/generate-styled-caption': () => json({ message: 'down', code: 'BAD_GATEWAY' }, 502),
    });
    await user.click(screen.getByRole('button', { name: 'Generate Captions' }));
    expect(await findToast(m.captionsFailed)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Captioned Images' })).toBeDisabled();
  });

  it('sends the original files for the Original tab and says when the reel fails', async () => {
    mockApi({
      ...credits(10),
      'POST /images/createReels': () =>
        json({ message: 'song.mp3 is not an audio file', code: 'BAD_REQUEST' }, 400),
    });
    const user = userEvent.setup();
    await openReels();
    await chooseUploadMode(user);
    await user.upload(screen.getByLabelText('Images'), [photo('a.jpg'), photo('b.jpg')]);
    await user.upload(screen.getByLabelText('Music'), song());
    await user.click(screen.getByRole('button', { name: 'Create & Download Reel' }));
    expect(await findToast(m.reelFailed)).toBeInTheDocument();
    expect(screen.getByText('Failed to create reel: song.mp3 is not an audio file')).toBeVisible();
    const [reel] = formsSentTo('/images/createReels');
    expect(reel?.getAll('images').map((file) => (file as File).name)).toEqual(['a.jpg', 'b.jpg']);
  });
});
