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
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Machine-readable error codes shared by server and browser. */
export const errorCodes = {
  validation: 'VALIDATION_ERROR',
  badRequest: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
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
  /** The card payment provider refused the card (the message is the provider's). */
  paymentDeclined: 'PAYMENT_DECLINED',
  badGateway: 'BAD_GATEWAY',
  /** A remote server (a page being scraped) did not answer in time. */
  gatewayTimeout: 'GATEWAY_TIMEOUT',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];
