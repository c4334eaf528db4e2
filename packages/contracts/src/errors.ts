import { z } from 'zod';

/** The one error shape every failing API call answers with (STYLE.md habit 5). */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z
    .array(
      z.object({
        path: z.string(),
        message: z.string(),
      }),
    )
    .optional(),
  /** Set when the failed work had been charged and its credits are back on the balance. */
  refunded: z.literal(true).optional(),
  /** A 402 for work of a known size (a CSV import): the credits it needs in all. */
  creditsNeeded: z.number().int().positive().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * The error responses of every route: added to each route's `response` by the error handler's
 * onRoute hook (apps/api/src/plugins/error-handler.ts), so no route can answer an error that its
 * schema would refuse to serialize. A route that adds SPEC fields to its errors declares its own
 * '4xx' schema extending errorResponseSchema.
 */
export const errorResponses = {
  '4xx': errorResponseSchema,
  '5xx': errorResponseSchema,
} as const;

/** Machine-readable error codes shared by server and browser. */
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
