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

/**
 * Multipart failures of @fastify/multipart and busboy (a missing or wrong boundary, a body cut off,
 * a limit reached) as the caller's 4xx; null for anything else. Busboy reports a broken body with
 * plain errors, told apart by their fixed messages.
 */
function multipartFailure(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(415, errorCodes.unsupportedMediaType, 'Send the form as multipart/form-data.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return payloadTooLarge('The form has too many files or fields.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return payloadTooLarge('A file of the form is too large.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('A form field has a name or value that is not allowed.');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('The upload was cut off before it finished; please try again.');
  }
  if (!(error instanceof Error) || code !== undefined) return null;
  if (error.message === 'Multipart: Boundary not found' || error.message === 'Unsupported Content-Type.')
    return badRequest(
      'The form could not be read: its Content-Type must be multipart/form-data with the boundary its body uses.',
    );
  if (/unexpected end of multipart data/i.test(error.message))
    return badRequest('The form could not be read: the body ends before the form does.');
  return null;
}

/**
 * The one map from what a service, a plugin or a library throws to the HTTP answer (STYLE.md habit
 * 13): an AppError as it is, a known failure as its AppError, anything else null (a 500).
 */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  return multipartFailure(error);
}

/** A start-up problem an operator fixes (configuration, a data directory in use): printed without a stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
