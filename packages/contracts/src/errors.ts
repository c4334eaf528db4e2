import { z } from 'zod';

/** The one error shape every failing API call answers with (docs/contributing.md, habit 5). */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z
    .array(
      z.object({
        path: z.string(),
        message: z.string(),
        /** With UNPUBLISHABLE_ALT: the image whose alt text may not go live, and why (ADR 067). */
        imageId: z.string().optional(),
        code: z.string().optional(),
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
 * schema would refuse to serialize. A route that adds the product spec fields to its errors declares its own
 * '4xx' schema extending errorResponseSchema.
 */
export const errorResponses = {
  '4xx': errorResponseSchema,
  '5xx': errorResponseSchema,
} as const;

// The codes live in a module without zod, so that the browser's lightest pages can branch on them.
export { codeForStatus, type ErrorCode, errorCodes, errorStatus, statusForCode } from './error-codes.ts';
