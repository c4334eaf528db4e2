/**
 * Machine-readable error codes shared by server and browser. Apart from errors.ts (which re-exports them)
 * so that code comparing codes does not load zod: the sign-in pages' light entry (ADR 038).
 */
export const errorCodes = {
  validation: 'VALIDATION_ERROR',
  badRequest: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  /** A call made with an API key that only a signed-in session may make (keys, password, billing…). */
  sessionRequired: 'SESSION_REQUIRED',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  unprocessable: 'UNPROCESSABLE',
  rateLimited: 'RATE_LIMITED',
  /** Login with the right password before the email address is confirmed. */
  emailNotConfirmed: 'EMAIL_NOT_CONFIRMED',
  /** A confirmation link used again after the address was confirmed. */
  emailAlreadyConfirmed: 'EMAIL_ALREADY_CONFIRMED',
  /** An emailed link (confirmation, password reset) that is unknown, already used or malformed. */
  tokenInvalid: 'TOKEN_INVALID',
  /** An emailed link whose time is up. */
  tokenExpired: 'TOKEN_EXPIRED',
  insufficientCredits: 'INSUFFICIENT_CREDITS',
  /**
   * Approving, publishing or exporting named images whose alt text may not go live (ADR 067): 409,
   * with `errors: [{ path, imageId, code, message }]`, one per such image. Nothing was changed.
   */
  unpublishableAlt: 'UNPUBLISHABLE_ALT',
  /** A language the configured alt-text engine cannot write (the offline engine writes English only). */
  languageNotSupported: 'LANGUAGE_NOT_SUPPORTED',
  /** The card payment provider refused the card (the message is the provider's). */
  paymentDeclined: 'PAYMENT_DECLINED',
  /** The engine (alt text, image editing, writing) is busy; try again in a minute (503). */
  engineBusy: 'ENGINE_BUSY',
  /** The engine or its provider failed right now (502). */
  engineFailed: 'ENGINE_FAILED',
  /** The engine's provider refused this input (its own 400, e.g. a content policy): 422. */
  engineRefused: 'ENGINE_REFUSED',
  /** Rendered mode asked of a server with no browser configured (CHROMIUM_PATH): 422. */
  renderingUnavailable: 'RENDERING_UNAVAILABLE',
  badGateway: 'BAD_GATEWAY',
  /** A remote server (a page being scraped) did not answer in time. */
  gatewayTimeout: 'GATEWAY_TIMEOUT',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

/**
 * The one table from a code to its HTTP status (ADR 047). A thrower names the code, never a status;
 * the server answers with this status and the browser reads it backwards (`codeForStatus`). Each code
 * has exactly one status. Within a status the first code listed is the generic one.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  TOKEN_INVALID: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  PAYMENT_DECLINED: 402,
  FORBIDDEN: 403,
  SESSION_REQUIRED: 403,
  EMAIL_NOT_CONFIRMED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_ALREADY_CONFIRMED: 409,
  UNPUBLISHABLE_ALT: 409,
  TOKEN_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  LANGUAGE_NOT_SUPPORTED: 422,
  ENGINE_REFUSED: 422,
  RENDERING_UNAVAILABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  ENGINE_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  ENGINE_BUSY: 503,
  GATEWAY_TIMEOUT: 504,
} as const satisfies Record<ErrorCode, number>;

/** The status of a code; 500 for a code not in the table. */
export function statusForCode(code: string): number {
  return Object.hasOwn(errorStatus, code) ? errorStatus[code as ErrorCode] : 500;
}

/**
 * The generic code of a status, for an answer that came without a code of ours (a proxy's page, a
 * framework's refusal); undefined when no code has that status.
 */
export function codeForStatus(status: number): ErrorCode | undefined {
  return (Object.keys(errorStatus) as ErrorCode[]).find((code) => errorStatus[code] === status);
}
