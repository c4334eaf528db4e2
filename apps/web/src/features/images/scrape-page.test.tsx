import { messages } from '@altwise/contracts/messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = messages.scrape;

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

async function openScrape() {
  storeSession('jwt-1');
  const view = renderApp('/scrape');
  await screen.findByRole('heading', { level: 1, name: 'Scrape a Web Page' }, { timeout: 5000 });
  return view;
}

const row = (src: string, alt = '') => ({ src, alt, invalid: false, context: { pageTitle: 'Post' } });

describe('scrape (/scrape)', () => {
  it('shows numbered instructions, a labelled URL field with an example and the two buttons', async () => {
    mockApi({});
    await openScrape();
    expect(screen.getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    expect(screen.getByLabelText('Web Page URL')).toHaveAttribute(
      'placeholder',
      'https://example.com/blog/post',
    );
    expect(screen.getByRole('button', { name: 'Scrape Page' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('Cancel goes back to /images', async () => {
    mockApi({});
    const user = userEvent.setup();
    const { router } = await openScrape();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/images'));
  });

  it('sends the URL as typed (no browser check), shows the busy overlay, then opens /scraped-images with the list', async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ 'POST /users/scrape-and-generate': () => answer.promise });
    const user = userEvent.setup();
    const { router } = await openScrape();
    await user.type(screen.getByLabelText('Web Page URL'), 'https://blog.example/post');
    await user.click(screen.getByRole('button', { name: 'Scrape Page' }));

    expect(await screen.findByText(m.busy)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ url: 'https://blog.example/post' });
    expect(calls.find((c) => c.method === 'POST')?.headers.get('Authorization')).toBe('Bearer jwt-1');

    const images = [row('https://blog.example/a.jpg', 'A cat'), row('https://blog.example/b.png')];
    answer.resolve(json(images));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scraped-images'));
    expect(router.state.location.state).toEqual({ url: 'https://blog.example/post', images });
    expect(JSON.parse(sessionStorage.getItem('altwise.scrapedImages') ?? 'null')).toEqual({
      url: 'https://blog.example/post',
      images,
    });
    expect(screen.queryByText(m.busy)).not.toBeInTheDocument();
  });

  it('an empty list or an unexpected answer says so and stays on the page', async () => {
    let answer: unknown = [];
    mockApi({ 'POST /users/scrape-and-generate': () => json(answer) });
    const user = userEvent.setup();
    const { router } = await openScrape();
    await user.type(screen.getByLabelText('Web Page URL'), 'https://empty.example');
    await user.click(screen.getByRole('button', { name: 'Scrape Page' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(m.noImages);
    expect(router.state.location.pathname).toBe('/scrape');

    answer = { images: 'nope' };
    await user.click(screen.getByRole('button', { name: 'Scrape Page' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(m.noImages);
    expect(router.state.location.pathname).toBe('/scrape');
  });

  it('a failing call shows the product spec’s text and the server’s reason (nothing checked in the browser)', async () => {
    const calls = mockApi({
      'POST /users/scrape-and-generate': () =>
        json({ message: 'Please enter a valid http or https URL', code: 'BAD_REQUEST' }, 400),
    });
    const user = userEvent.setup();
    await openScrape();
    await user.type(screen.getByLabelText('Web Page URL'), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Scrape Page' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.failed);
    expect(alert).toHaveTextContent('Please enter a valid http or https URL');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('a network failure shows only the product spec’s text', async () => {
    mockApi({
      'POST /users/scrape-and-generate': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const user = userEvent.setup();
    await openScrape();
    await user.type(screen.getByLabelText('Web Page URL'), 'https://down.example');
    await user.click(screen.getByRole('button', { name: 'Scrape Page' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.failed);
    expect(alert).not.toHaveTextContent('connection');
  });
});
