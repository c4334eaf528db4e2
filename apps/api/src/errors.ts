import { type ErrorCode, type ErrorResponse, errorCodes, statusForCode } from '@altwise/contracts/errors';
import { EngineBusyError, EngineInputError, EngineProviderError } from './engines/errors.ts';
import { EditPromptError } from './engines/images/types.ts';
import { SandboxLimitError } from './lib/sandbox.ts';
import { SafeFetchError } from './net/safe-fetch.ts';

export type FieldError = NonNullable<ErrorResponse['errors']>[number];

type AppErrorOptions = { errors?: FieldError[]; cause?: unknown; refunded?: boolean; creditsNeeded?: number };

/**
 * An expected failure a service reports to the caller. Its message is written for a person and
 * is sent as is, whatever the status; anything else that is thrown becomes a generic 500. A thrower
 * names the code; its status comes from the one table, `errorStatus` in the contracts (ADR 047).
 */
export class AppError extends Error {
  /** From the code, by the contracts' `errorStatus` table. */
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  /** The failed work had been charged and its credits are back (the answer says `refunded: true`). */
  readonly refunded: boolean;
  /** A 402 for work of a known size: the credits it needs in all (the answer's `creditsNeeded`). */
  readonly creditsNeeded: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.statusCode = statusForCode(code);
    this.code = code;
    this.errors = options.errors;
    this.refunded = options.refunded ?? false;
    this.creditsNeeded = options.creditsNeeded;
  }
}

/**
 * Paid or named work that failed: what a service throws instead of choosing an HTTP answer. The
 * error handler maps `cause` like any other error, names the work in the message, and, when
 * `refundedCredits` is set (the credits are already back), says so and adds `refunded: true`.
 */
export class WorkFailedError extends Error {
  readonly work: string | undefined;
  readonly refundedCredits: number;

  constructor(cause: unknown, options: { work?: string; refundedCredits?: number } = {}) {
    super(cause instanceof Error ? cause.message : 'The work failed.', { cause });
    this.name = 'WorkFailedError';
    this.work = options.work;
    this.refundedCredits = options.refundedCredits ?? 0;
  }
}

/** A failure a batch image or a regenerate reports: `retryable` when trying again later may work. */
export class ImageFailure extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageFailure';
    this.retryable = retryable;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(errorCodes.badRequest, message, { errors });
export const validationFailed = (message: string, errors: FieldError[]) =>
  new AppError(errorCodes.validation, message, { errors });
export const unauthorized = (message = 'Please sign in to continue.') =>
  new AppError(errorCodes.unauthorized, message);
export const forbidden = (message = 'You do not have access to this.') =>
  new AppError(errorCodes.forbidden, message);
export const notFound = (message: string) => new AppError(errorCodes.notFound, message);
export const conflict = (message: string) => new AppError(errorCodes.conflict, message);
export const payloadTooLarge = (message: string) => new AppError(errorCodes.payloadTooLarge, message);
export const unprocessable = (message: string) => new AppError(errorCodes.unprocessable, message);
export const insufficientCredits = (message: string) => new AppError(errorCodes.insufficientCredits, message);
export const badGateway = (message: string, cause?: unknown) =>
  new AppError(errorCodes.badGateway, message, { cause });
export const unavailable = (message: string) => new AppError(errorCodes.unavailable, message);

/** A fetch of a caller's address (a page to scrape) that failed, as the caller's answer. */
function fetchFailure(error: SafeFetchError): AppError {
  switch (error.code) {
    case 'INVALID_URL':
      return badRequest(error.message);
    case 'REFUSED_ADDRESS':
      return badRequest(`${error.message} Only public web addresses can be fetched.`);
    case 'TOO_LARGE':
      return payloadTooLarge(
        `The answer is too large: ${error.message.replace(/^The answer is /, 'it is ')}`,
      );
    case 'UNSUPPORTED_TYPE':
      return new AppError(errorCodes.unsupportedMediaType, error.message);
    case 'TIMEOUT':
      return new AppError(errorCodes.gatewayTimeout, `The address took too long to answer. ${error.message}`);
    case 'HTTP_ERROR':
    case 'TOO_MANY_REDIRECTS':
      return badGateway(`The address could not be loaded: ${error.message}`, error);
    case 'UNREACHABLE':
      return badGateway(`The address could not be reached: ${error.message}`, error);
  }
}

/** Untrusted input that hit a limit of the thread parsing it (lib/sandbox.ts): the caller's input, not a fault. */
function sandboxFailure(error: SandboxLimitError): AppError {
  if (error.limit === 'busy' || error.limit === 'closed') return unavailable(error.message);
  return payloadTooLarge(`The input is too large or too complex to process. ${error.message}`);
}

/** Domain failures (engines, fetches, image checks) as the caller's answer; null when not one. */
function domainFailure(error: unknown, work: string | undefined): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof EditPromptError) return unprocessable(error.message);
  if (error instanceof EngineInputError) {
    if (error.code === 'TOO_MANY_PIXELS') return payloadTooLarge(error.message);
    if (error.code === 'TOO_LARGE') return unprocessable(error.message);
    return badRequest(error.message);
  }
  if (error instanceof EngineBusyError)
    return new AppError(
      errorCodes.engineBusy,
      `${work ?? 'The work'} could not be done: the AI engine is busy right now. Please try again in a minute.`,
    );
  if (error instanceof EngineProviderError) {
    if (error.status === 400)
      return new AppError(errorCodes.engineRefused, `${work ?? 'The work'} failed: ${error.message}`);
    // The provider's own words stay in the log: they may name internals.
    return new AppError(
      errorCodes.engineFailed,
      `${work ?? 'The work'} failed: the AI engine could not do it right now. Please try again in a few minutes.`,
      { cause: error },
    );
  }
  if (error instanceof ImageFailure)
    return error.retryable
      ? new AppError(errorCodes.engineFailed, `${error.message} Please try again.`, { cause: error })
      : unprocessable(error.message);
  if (error instanceof SafeFetchError) return fetchFailure(error);
  if (error instanceof SandboxLimitError) return sandboxFailure(error);
  // Multipart failures are answered by the one multipart reader (lib/multipart.ts).
  return null;
}

/**
 * The one map from what a service, a plugin or a library throws to the HTTP answer (docs/contributing.md,
 * habit 5), used only by the error handler: an AppError as it is, a known failure as its AppError (named
 * after its work, with `refunded` when its credits came back), anything else null (a 500).
 */
export function toAppError(error: unknown): AppError | null {
  if (!(error instanceof WorkFailedError)) return domainFailure(error, undefined);
  const mapped = domainFailure(error.cause, error.work);
  if (!mapped || error.refundedCredits <= 0) return mapped;
  const credits = error.refundedCredits === 1 ? 'Your credit was refunded.' : 'Your credits were refunded.';
  return new AppError(mapped.code, `${mapped.message} ${credits}`, {
    errors: mapped.errors,
    cause: error.cause,
    refunded: true,
  });
}

/** A start-up problem an operator fixes (configuration, a data directory in use): printed without a stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * Named images whose alt text may not go live (ADR 067): 409 UNPUBLISHABLE_ALT listing each with its
 * code and message; the caller changed nothing.
 */
export const unpublishableAlt = (
  refused: ReadonlyArray<{ imageId: string; code: string; message: string }>,
  action: string,
) =>
  new AppError(
    errorCodes.unpublishableAlt,
    `${refused.length} of the selected images ${refused.length === 1 ? 'has' : 'have'} no alt text we can ${action}: ${refused.length === 1 ? 'it needs' : 'they need'} your words first. Nothing was changed.`,
    {
      errors: refused.map((image) => ({
        path: 'imageIds',
        imageId: image.imageId,
        code: image.code,
        message: image.message,
      })),
    },
  );
