import type { ErrorResponse } from '@altwise/contracts/errors';

export type FieldError = NonNullable<ErrorResponse['errors']>[number];

/**
 * A failed API call, carrying the server's `{message, code, errors?, refunded?}` (docs/contributing.md, habit 5).
 * Branch on `code` and `refunded`, show `message`; never read the message to decide (same habit). Kept
 * apart from the fetch wrapper so that eagerly loaded code (query defaults, guards) can test for it
 * cheaply.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  /** The server gave back the credits of the failed work. */
  readonly refunded: boolean;
  /** The answer had no error body of ours (a proxy's page, a cut connection): the message is ours. */
  readonly unreadable: boolean;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    errors?: FieldError[] | undefined;
    refunded?: boolean | undefined;
    unreadable?: boolean;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors ?? [];
    this.refunded = init.refunded ?? false;
    this.unreadable = init.unreadable ?? false;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** True when the server says the failed work's credits are back on the balance. */
export function wasRefunded(error: unknown): boolean {
  return isApiError(error) && error.refunded;
}

/** True for a server 401 and for a token-requiring call made without a token. */
export function isUnauthorized(error: unknown): boolean {
  return isApiError(error) && error.status === 401;
}

/** The message to show a person for any thrown value. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/**
 * The message the server sent with a failure, or undefined when there is none to show: a network
 * failure (status 0) or a response without our error body (e.g. a proxy's HTML page).
 */
export function serverMessage(error: unknown): string | undefined {
  if (!isApiError(error) || error.status === 0 || !error.message || error.unreadable) return undefined;
  return error.message;
}
