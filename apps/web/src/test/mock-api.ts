import { vi } from 'vitest';

export type MockCall = {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
  /** The query string's parameters (the handler key ignores them). */
  query: URLSearchParams;
};
type Handler = (call: MockCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Stubs fetch with handlers keyed by 'METHOD /path' (relative to /api/v1). Unknown calls answer 404.
 * Returns the list of calls made, so a test can assert what was (or was not) sent.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: MockCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const call = { method, path, body, headers: new Headers(init?.headers), query: url.searchParams };
      calls.push(call);
      const handler = handlers[`${method} ${path}`];
      return handler ? handler(call) : json({ message: 'Not found', code: 'NOT_FOUND' }, 404);
    }),
  );
  return calls;
}

/** A promise the test resolves when it wants the server to answer (to see pending states). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const noGoogle = { 'GET /config': () => json({ googleClientId: null }) };

/** The visible toast with this text (the Toaster also repeats it in a screen-reader live region). */
export async function findToast(text: string) {
  const { screen, within } = await import('@testing-library/react');
  const region = await screen.findByRole('region', { name: 'Notifications (top right)' });
  return within(region).findByText(text);
}
