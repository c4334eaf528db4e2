import { batchStartedMessage } from '@altwise/contracts/generation';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = messages.scrape;

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const pageUrl = 'https://blog.example/post';
/** Every field the scraper records (W3C alt decision tree): sent to the API as it came. */
const linkedContext = {
  pageTitle: 'Post',
  heading: 'B',
  caption: 'Our prices',
  surroundingText: 'See the plans.',
  linkTarget: 'https://blog.example/pricing',
  role: 'link' as const,
  linkText: 'Pricing',
};
const images = [
  {
    src: 'https://blog.example/img/cat%20photo.jpg',
    alt: 'A cat',
    invalid: false,
    context: { pageTitle: 'Post' },
  },
  { src: 'https://blog.example/', alt: '', invalid: false, context: {} },
  { src: 'data:image/png;base64,AAAA', alt: '', invalid: true, error: 'Invalid image source', context: {} },
  { src: 'https://cdn.example/b.png?w=800', alt: '  ', invalid: false, context: linkedContext },
];

const credits = (n: number) => ({ 'GET /credits/remaining': () => json({ success: true, imageCredits: n }) });

async function openWithList(list = images) {
  storeSession('jwt-1');
  sessionStorage.setItem('altwise.scrapedImages', JSON.stringify({ url: pageUrl, images: list }));
  const view = renderApp('/scraped-images');
  await screen.findByRole('heading', { level: 1, name: 'Scraped Images' }, { timeout: 5000 });
  return view;
}

const rowCheckbox = (n: number) =>
  screen.getByRole('checkbox', { name: new RegExp(`^Select image ${n}\\b`) });

describe('scraped images (/scraped-images)', () => {
  it('without a list says so and offers a new scrape', async () => {
    mockApi(credits(10));
    storeSession();
    const { router } = renderApp('/scraped-images');
    expect(await screen.findByText(m.noList, {}, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'New Page Scrape' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scrape'));
  });

  it('takes the list from the router state', async () => {
    mockApi(credits(10));
    storeSession();
    const { router } = renderApp('/images');
    await router.navigate('/scraped-images', {
      state: { url: 'https://state.example', images: [images[0]] },
    });
    expect(await screen.findByText('https://state.example', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /cat photo\.jpg/ })).toBeInTheDocument();
  });

  it('shows the summary, the credits and the table with names, invalid rows and missing alt text', async () => {
    mockApi(credits(12));
    await openWithList();
    expect(screen.getByText(pageUrl)).toBeInTheDocument();
    const summary = screen.getByRole('heading', { name: 'Summary' }).parentElement as HTMLElement;
    expect(within(summary).getByText('Total scraped images').nextSibling).toHaveTextContent('4');
    expect(within(summary).getByText('Images missing alt text').nextSibling).toHaveTextContent('3');
    await waitFor(() =>
      expect(within(summary).getByText('Remaining credits').nextSibling).toHaveTextContent('12'),
    );

    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 3)).toEqual(['#', 'IMAGE', 'EXISTING ALT TEXT']);
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: /cat photo\.jpg/ })).toHaveAttribute(
      'href',
      images[0]?.src,
    );
    expect(within(rows[0] as HTMLElement).getByText('A cat')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: /Unnamed Image/ })).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('No alt text')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('Invalid image source')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).queryByRole('link')).not.toBeInTheDocument();
    expect(rowCheckbox(3)).toBeDisabled();
    expect(within(rows[3] as HTMLElement).getByRole('link', { name: /b\.png/ })).toBeInTheDocument();
    expect(screen.getByText(/limited to 200 images/)).toBeInTheDocument();
    expect(screen.getByText(/generated in the background/)).toBeInTheDocument();
    expect(screen.getByText(/may be skipped/)).toBeInTheDocument();
  });

  it('Generate is disabled without a selection; select all picks only the valid rows', async () => {
    mockApi(credits(12));
    const user = userEvent.setup();
    await openWithList();
    const generate = screen.getByRole('button', { name: 'Generate Alt Text for selected' });
    expect(generate).toBeDisabled();
    await user.click(rowCheckbox(1));
    expect(generate).toBeEnabled();
    await user.click(rowCheckbox(1));
    expect(generate).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /all images/ }));
    expect(rowCheckbox(1)).toBeChecked();
    expect(rowCheckbox(2)).toBeChecked();
    expect(rowCheckbox(3)).not.toBeChecked();
    expect(rowCheckbox(4)).toBeChecked();
    expect(screen.getByText('Selected: 3')).toBeInTheDocument();
  });

  it('refuses more images than the remaining credits without a call', async () => {
    const calls = mockApi(credits(2));
    const user = userEvent.setup();
    await openWithList();
    await waitFor(() => expect(screen.getByText('Remaining credits').nextSibling).toHaveTextContent('2'));
    await user.click(screen.getByRole('checkbox', { name: /all images/ }));
    await user.click(screen.getByRole('button', { name: 'Generate Alt Text for selected' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(m.tooFewCredits(2));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('unknown credits: asks to refresh and sends nothing', async () => {
    const calls = mockApi({
      'GET /credits/remaining': () => json({ message: 'Server error', code: 'INTERNAL' }, 500),
    });
    const user = userEvent.setup();
    await openWithList();
    await waitFor(
      () => expect(screen.getByText('Remaining credits').nextSibling).toHaveTextContent('Unavailable'),
      {
        timeout: 5000,
      },
    );
    await user.click(rowCheckbox(1));
    await user.click(screen.getByRole('button', { name: 'Generate Alt Text for selected' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(m.unknownCredits);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('sends the selected rows with the prompt and page, shows the overlay, then opens /images with the batch', async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ ...credits(5), 'POST /images/generate-alt-text': () => answer.promise });
    const user = userEvent.setup();
    const { router } = await openWithList();
    await waitFor(() => expect(screen.getByText('Remaining credits').nextSibling).toHaveTextContent('5'));
    await user.click(rowCheckbox(4));
    await user.click(rowCheckbox(1));
    await user.type(screen.getByLabelText('Custom prompt (optional)'), 'Mention the colours');
    await user.click(screen.getByRole('button', { name: 'Generate Alt Text for selected' }));

    expect(await screen.findByText('Generating alt text...')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      selectedImages: [
        { src: images[0]?.src, alt: 'A cat', context: { pageTitle: 'Post' } },
        { src: images[3]?.src, alt: '  ', context: linkedContext },
      ],
      userId: 'u1',
      chatGptPrompt: 'Mention the colours',
      pageUrl,
    });
    const creditReads = calls.filter((c) => c.path === '/credits/remaining').length;
    answer.resolve(
      json({
        success: true,
        message: batchStartedMessage(2),
        batchId: 'b-1',
        total: 2,
        creditsReserved: 2,
        remainingCredits: 3,
        status: 'queued',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/images'));
    expect(router.state.location.state).toEqual({ batchId: 'b-1', message: batchStartedMessage(2) });
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/credits/remaining').length).toBeGreaterThan(creditReads),
    );
  });

  it('a failure shows the server’s message, or the product spec’s fallback', async () => {
    let fail = () => json({ message: 'Insufficient credits', code: 'PAYMENT_REQUIRED' }, 402);
    mockApi({ ...credits(5), 'POST /images/generate-alt-text': () => fail() });
    const user = userEvent.setup();
    const { router } = await openWithList();
    await waitFor(() => expect(screen.getByText('Remaining credits').nextSibling).toHaveTextContent('5'));
    await user.click(rowCheckbox(1));
    await user.click(screen.getByRole('button', { name: 'Generate Alt Text for selected' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Insufficient credits');

    fail = () => new Response('<html>bad gateway</html>', { status: 502 });
    await user.click(screen.getByRole('button', { name: 'Generate Alt Text for selected' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(m.generateFailed));
    expect(router.state.location.pathname).toBe('/scraped-images');
  });
});
