import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client.ts';
import { ApiError } from './api-error.ts';

function mockFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it("throws 'No token found' and sends nothing when a token-requiring call has no token", async () => {
    const fetchMock = mockFetch(json({}));
    await expect(api.get('/users/profile')).rejects.toThrow('No token found');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the stored token as a Bearer header to /api/v1', async () => {
    localStorage.setItem('token', 'jwt-1');
    const fetchMock = mockFetch(json({ user: { id: 1 } }));
    await expect(api.get('/users/profile')).resolves.toEqual({ user: { id: 1 } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/users/profile');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer jwt-1');
  });

  it('sends public calls without a token and bodies as JSON', async () => {
    const fetchMock = mockFetch(json({ status: 'success' }));
    await api.post('/users/login', { email: 'a@example.com', password: 'x' }, { auth: false });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBeNull();
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"email":"a@example.com","password":"x"}');
  });

  it('reads the code of an answer without our error body (a proxy page, a 422 HTML) from the one table', async () => {
    const page = (status: number) =>
      new Response('<html>upstream says no</html>', { status, headers: { 'Content-Type': 'text/html' } });
    for (const [status, code] of [
      [422, 'UNPROCESSABLE'],
      [402, 'INSUFFICIENT_CREDITS'],
      [504, 'GATEWAY_TIMEOUT'],
      [418, 'INTERNAL_ERROR'],
    ] as const) {
      mockFetch(page(status));
      const error = await api.post('/users/login', {}, { auth: false }).catch((e: unknown) => e);
      expect(error, String(status)).toMatchObject({ status, code, unreadable: true });
    }
  });

  it('turns the {message, code, errors} shape into an ApiError', async () => {
    mockFetch(
      json(
        {
          message: 'Check the form',
          code: 'VALIDATION_ERROR',
          errors: [{ path: 'email', message: 'Enter a valid email' }],
        },
        400,
      ),
    );
    const error = await api.post('/users/register', {}, { auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Check the form',
      errors: [{ path: 'email', message: 'Enter a valid email' }],
    });
  });

  it('falls back to a generic message when the error body is not the agreed shape', async () => {
    mockFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.get('/credits/remaining', { auth: false })).rejects.toMatchObject({
      status: 502,
      message: 'An unknown error occurred',
    });
  });

  it('clears the stored token on a 401 from an authenticated call', async () => {
    localStorage.setItem('token', 'expired');
    localStorage.setItem('userId', 'u1');
    mockFetch(json({ message: 'Your session has expired', code: 'UNAUTHORIZED' }, 401));
    await expect(api.get('/credits/remaining')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('reports a network failure as an ApiError a person can read', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(api.get('/health', { auth: false })).rejects.toMatchObject({
      status: 0,
      message: 'Could not reach the server. Check your connection and try again.',
    });
  });
});

describe('apiRequestWithHeaders', () => {
  it('gives the parsed body and the response headers (e.g. x-total-count)', async () => {
    localStorage.setItem('token', 'jwt-1');
    mockFetch(
      new Response(JSON.stringify([{ id: 'a' }]), {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'x-total-count': '42' },
      }),
    );
    const { apiRequestWithHeaders } = await import('./api-client.ts');
    const { data, headers } = await apiRequestWithHeaders('/images/altText', { query: { page: 1 } });
    expect(data).toEqual([{ id: 'a' }]);
    expect(headers.get('x-total-count')).toBe('42');
  });
});
