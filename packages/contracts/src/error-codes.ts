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
  /** A language the configured alt-text engine cannot write (the offline engine writes English only). */
  languageNotSupported: 'LANGUAGE_NOT_SUPPORTED',
  /** The card payment provider refused the card (the message is the provider's). */
  paymentDeclined: 'PAYMENT_DECLINED',
  /** The engine (alt text, image editing, writing) is busy; try again in a minute (503). */
  engineBusy: 'ENGINE_BUSY',
  /** The engine or its provider failed on this input or right now (502, or 422 for input it refused). */
  engineFailed: 'ENGINE_FAILED',
  badGateway: 'BAD_GATEWAY',
  /** A remote server (a page being scraped) did not answer in time. */
  gatewayTimeout: 'GATEWAY_TIMEOUT',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];
