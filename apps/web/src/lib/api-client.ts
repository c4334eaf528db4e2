import { codeForStatus, errorCodes, errorResponseSchema, statusForCode } from '@altwise/contracts/errors';
import { messages } from '@altwise/contracts/messages';
import { API_BASE } from '@altwise/contracts/routes';
import { ApiError } from './api-error.ts';
import { clearToken, readToken } from './auth-storage.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiRequestOptions<T> = {
  method?: HttpMethod;
  /** A plain value is sent as JSON; FormData, Blob and URLSearchParams are sent as they are. */
  body?: unknown;
  /** Sends `Authorization: Bearer <token>`; true unless the call is public (the product spec §6). */
  auth?: boolean;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  responseType?: 'json' | 'blob' | 'text';
  /** Checks the response body, e.g. a zod schema from @altwise/contracts. */
  schema?: { parse: (data: unknown) => T };
};

export const networkErrorMessage = 'Could not reach the server. Check your connection and try again.';

function buildUrl(path: string, query: ApiRequestOptions<unknown>['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function isRawBody(body: unknown): body is BodyInit {
  return body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams;
}

/** A failed answer as an ApiError: the server's error body, or `unreadable` when it sent none of ours. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const parsed = errorResponseSchema.safeParse(body);
  if (parsed.success) return new ApiError({ status, ...parsed.data });
  return new ApiError({
    status,
    // The same table as the server's, read backwards (ADR 047).
    code: codeForStatus(status) ?? errorCodes.internal,
    message: messages.common.unknownError,
    unreadable: true,
  });
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  return apiErrorFromBody(response.status, body);
}

/**
 * The one way the browser talks to the API under /api/v1.
 * - Authenticated calls (the default) without a stored token throw 'No token found' (an ApiError with
 *   status 401) and send nothing.
 * - A failing response becomes an ApiError carrying the server's `{message, code, errors}`.
 * - A 401 on an authenticated call removes the stored token; the AuthProvider notices and the route
 *   guard sends the person to /login.
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  return (await apiRequestWithHeaders(path, options)).data;
}

/**
 * Same as apiRequest, and also gives the response headers (e.g. `x-total-count` of a paged list).
 */
export async function apiRequestWithHeaders<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<{ data: T; headers: Headers }> {
  const { method = 'GET', body, auth = true, query, signal, responseType = 'json', schema } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };

  if (auth) {
    const token = readToken();
    if (!token) {
      throw new ApiError({
        status: statusForCode(errorCodes.unauthorized),
        code: errorCodes.unauthorized,
        message: messages.common.noToken,
      });
    }
    headers.Authorization = `Bearer ${token}`;
  }

  let requestBody: BodyInit | undefined;
  if (body !== undefined) {
    if (isRawBody(body)) {
      requestBody = body;
    } else {
      requestBody = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: requestBody,
      signal: signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: errorCodes.unavailable, message: networkErrorMessage });
  }

  if (!response.ok) {
    if (auth && response.status === 401) clearToken();
    throw await toApiError(response);
  }

  const { headers: responseHeaders } = response;
  if (responseType === 'blob') return { data: (await response.blob()) as T, headers: responseHeaders };
  if (responseType === 'text') return { data: (await response.text()) as T, headers: responseHeaders };
  if (response.status === 204) return { data: undefined as T, headers: responseHeaders };
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  return { data: schema ? schema.parse(data) : (data as T), headers: responseHeaders };
}

type BodylessOptions<T> = Omit<ApiRequestOptions<T>, 'method' | 'body'>;

export const api = {
  get: <T = unknown>(path: string, options?: BodylessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: BodylessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: BodylessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: BodylessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, body?: unknown, options?: BodylessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE', body }),
};
