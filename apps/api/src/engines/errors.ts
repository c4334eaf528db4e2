/**
 * The input is not something we can describe (not an image, too many pixels, unsafe SVG).
 * The server maps it to a 4xx and refunds the credit; retrying will not help.
 */
export class EngineInputError extends Error {
  readonly code: 'NOT_AN_IMAGE' | 'TOO_MANY_PIXELS' | 'TOO_LARGE' | 'UNSAFE_SVG' | 'UNREADABLE_URL';
  constructor(code: EngineInputError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineInputError';
    this.code = code;
  }
}

/**
 * The engine or its provider failed (rate limit, outage, timeout, malformed answer).
 * `retryable` tells a job queue whether trying again later makes sense; the credit is refunded either way.
 */
export class EngineProviderError extends Error {
  readonly retryable: boolean;
  readonly status: number | undefined;
  constructor(message: string, options: { retryable: boolean; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'EngineProviderError';
    this.retryable = options.retryable;
    this.status = options.status;
  }
}

/** The worker pool's queue is full; the caller should back off (HTTP 503). */
export class EngineBusyError extends EngineProviderError {
  constructor(message = 'The alt-text engine is busy; try again shortly.') {
    super(message, { retryable: true });
    this.name = 'EngineBusyError';
  }
}
