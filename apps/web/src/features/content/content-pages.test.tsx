import { messages } from '@altwise/contracts/messages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, findToast, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { formatDate, titleOf } from './format-date.ts';

const m = messages.generator;

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openGenerator() {
  storeSession('jwt-1');
  const view = renderApp('/generate-content');
  await screen.findByRole('heading', { level: 1, name: 'Blog Post Generator' }, { timeout: 5000 });
  return view;
}

const posts = (calls: ReturnType<typeof mockApi>) => calls.filter((c) => c.method === 'POST');

describe('blog post generator (/generate-content)', () => {
  it('says what is missing in the words of the product spec §5 and sends nothing', async () => {
    const calls = mockApi({});
    const user = userEvent.setup();
    await openGenerator();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText(m.promptRequired)).toBeInTheDocument();
    expect(screen.getByText(m.toneRequired)).toBeInTheDocument();
    expect(screen.getByText(m.categoryRequired)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Prompt/)).toHaveFocus();
    expect(screen.getByLabelText(/^Tone/)).toHaveAttribute('aria-invalid', 'true');
    expect(posts(calls)).toEqual([]);
  });

  it('shows an error only once a field has been left', async () => {
    mockApi({});
    const user = userEvent.setup();
    await openGenerator();
    expect(screen.queryByText(m.promptRequired)).not.toBeInTheDocument();
    await user.click(screen.getByLabelText(/^Prompt/));
    await user.tab();
    expect(await screen.findByText(m.promptRequired)).toBeInTheDocument();
    expect(screen.queryByText(m.toneRequired)).not.toBeInTheDocument();
  });

  it('sends the prompt built from topic, category and tone, then shows the success banner and the text', async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ 'POST /openai/generate-content': () => answer.promise });
    const user = userEvent.setup();
    await openGenerator();
    await user.type(screen.getByLabelText(/^Prompt/), 'alt text for product photos');
    await user.selectOptions(screen.getByLabelText(/^Tone/), 'humorous');
    await user.selectOptions(screen.getByLabelText(/^Category/), 'business');
    await user.click(screen.getByRole('button', { name: 'Generate' }));

    expect(await screen.findByText('Writing your blog post...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(posts(calls)[0]?.body).toEqual({
      prompt: 'Write a humorous blog post for the business category about: alt text for product photos',
    });
    expect(posts(calls)[0]?.headers.get('Authorization')).toBe('Bearer jwt-1');

    answer.resolve(
      json({
        success: true,
        message: m.success,
        text: '# Alt Text for Product Photos\n\nA draft.',
        createdAt: '2026-11-22T10:00:00.000Z',
        engine: 'offline',
        model: 'altwise-draft-writer-1',
      }),
    );
    expect(await screen.findByText(m.success)).toBeInTheDocument();
    const text = screen.getByTestId('generated-text');
    expect(text).toHaveTextContent('# Alt Text for Product Photos A draft.');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Your blog post' })).toHaveFocus());

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy text' }));
    expect(writeText).toHaveBeenCalledWith('# Alt Text for Product Photos\n\nA draft.');
    expect(await findToast('Blog post copied!')).toBeInTheDocument();
  });

  it("shows the server's message when generation fails", async () => {
    mockApi({
      'POST /openai/generate-content': () =>
        json(
          {
            message: 'The blog post could not be written right now. Please try again in a few minutes.',
            code: 'BAD_GATEWAY',
          },
          502,
        ),
    });
    const user = userEvent.setup();
    await openGenerator();
    await user.type(screen.getByLabelText(/^Prompt/), 'decorative images');
    await user.selectOptions(screen.getByLabelText(/^Tone/), 'formal');
    await user.selectOptions(screen.getByLabelText(/^Category/), 'technology');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'The blog post could not be written right now. Please try again in a few minutes.',
    );
    expect(screen.queryByTestId('generated-text')).not.toBeInTheDocument();
  });
});

describe('content history (/history)', () => {
  it('lists each text with its date as MMM dd, yyyy, in the order the server gives (newest first)', async () => {
    const newer = '2026-11-22T12:00:00.000Z';
    const older = '2026-03-05T12:00:00.000Z';
    mockApi({
      'GET /users/content-history': () =>
        json({
          contentHistory: [
            { content: '# Second Post\n\nNewer text.', createdAt: newer },
            { content: '# First Post\n\nOlder text.', createdAt: older },
          ],
        }),
    });
    storeSession();
    renderApp('/history');
    const list = await screen.findByRole('list', { name: 'Generated content' }, { timeout: 5000 });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Second Post',
      'First Post',
    ]);
    expect(within(items[1] as HTMLElement).getByText(formatDate(older))).toHaveAttribute('datetime', older);
    expect(formatDate(older)).toMatch(/^Mar 0[45], 2026$/);
  });

  it('has an empty state with a way to the generator', async () => {
    mockApi({ 'GET /users/content-history': () => json({ contentHistory: [] }) });
    storeSession();
    renderApp('/history');
    expect(await screen.findByText('No content yet', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Generate a blog post' })).toHaveAttribute(
      'href',
      '/generate-content',
    );
  });
});

describe('formatDate and titleOf', () => {
  it('formats as MMM dd, yyyy and titles a text by its first line', () => {
    expect(formatDate(new Date(2027, 2, 5, 12).toISOString())).toBe('Mar 05, 2027');
    expect(formatDate('not a date')).toBe('');
    expect(titleOf('\n# **Alt text** basics\n\nBody')).toBe('Alt text basics');
  });
});
