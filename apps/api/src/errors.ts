import { type ErrorCode, type ErrorResponse, errorCodes } from '@altwise/contracts/errors';

export type FieldError = NonNullable<ErrorResponse['errors']>[number];

/**
 * An expected failure a service reports to the caller. Its message is written for a person and
 * is sent as is, whatever the status; anything else that is thrown becomes a generic 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;

  constructor(
    statusCode: number,
    code: ErrorCode,
    message: string,
    options: { errors?: FieldError[]; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = options.errors;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(400, errorCodes.badRequest, message, { errors });
export const validationFailed = (message: string, errors: FieldError[]) =>
  new AppError(400, errorCodes.validation, message, { errors });
export const unauthorized = (message = 'Please sign in to continue.') =>
  new AppError(401, errorCodes.unauthorized, message);
export const forbidden = (message = 'You do not have access to this.') =>
  new AppError(403, errorCodes.forbidden, message);
export const notFound = (message: string) => new AppError(404, errorCodes.notFound, message);
export const conflict = (message: string) => new AppError(409, errorCodes.conflict, message);
export const payloadTooLarge = (message: string) => new AppError(413, errorCodes.payloadTooLarge, message);
export const unprocessable = (message: string) => new AppError(422, errorCodes.unprocessable, message);
export const insufficientCredits = (message: string) =>
  new AppError(402, errorCodes.insufficientCredits, message);
export const badGateway = (message: string, cause?: unknown) =>
  new AppError(502, errorCodes.badGateway, message, { cause });
export const unavailable = (message: string) => new AppError(503, errorCodes.unavailable, message);

/** A start-up problem an operator fixes (configuration, a data directory in use): printed without a stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
