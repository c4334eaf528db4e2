import {
  codeForStatus,
  type ErrorResponse,
  errorCodes,
  errorResponses,
  statusForCode,
} from '@altwise/contracts/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type FieldError, toAppError, WorkFailedError } from '../errors.ts';
import { multipartFaults } from '../lib/multipart.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Fields the product spec adds to this route's error answers besides `{message, code, errors?}` (e.g. the
     * legacy card routes' `error`, a copy of the message). The route's '4xx' schema declares them.
     */
    errorExtras?: (body: ErrorResponse) => Record<string, string>;
  }
}

export function internalErrorMessage(requestId: string): string {
  return `Something went wrong on our side. Please try again; if it keeps happening, contact support with request id ${requestId}.`;
}

export function sendJsonNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0];
  const body: ErrorResponse = {
    message: `Route ${request.method} ${path} not found`,
    code: errorCodes.notFound,
  };
  return reply.code(statusForCode(body.code)).type('application/json; charset=utf-8').send(body);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

/** A route that reads a multipart form (its schema says it consumes one). */
function takesMultipart(request: FastifyRequest): boolean {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  return consumes?.includes('multipart/form-data') ?? false;
}

/** Turns a path like "/items/0/name" into "items.0.name"; an empty path names the whole part. */
function fieldPath(instancePath: string, context: string | undefined): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path || context || 'body';
}

/** Maps anything thrown by a handler, a hook or Fastify itself onto the one error shape. */
export function toErrorResponse(
  error: FastifyError | Error,
  request: FastifyRequest,
): { statusCode: number; body: ErrorResponse; log: boolean } {
  const known = toAppError(error);
  if (known) {
    const body: ErrorResponse = { message: known.message, code: known.code };
    if (known.errors) body.errors = known.errors;
    if (known.refunded) body.refunded = true;
    if (known.creditsNeeded !== undefined) body.creditsNeeded = known.creditsNeeded;
    return { statusCode: known.statusCode, body, log: known.statusCode >= 500 };
  }

  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError) || Array.isArray(fastifyError.validation)) {
    const errors: FieldError[] = (fastifyError.validation ?? []).map((issue) => ({
      path: fieldPath(issue.instancePath, fastifyError.validationContext),
      message: issue.message ?? 'is invalid',
    }));
    const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    return {
      statusCode: statusForCode(errorCodes.validation),
      body: { message: `Invalid request: ${summary}`, code: errorCodes.validation, errors },
      log: false,
    };
  }

  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    let message = fastifyError.message;
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        message = 'The request body is not valid JSON. Check its quotes, commas and brackets.';
        break;
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        message =
          'The request body is empty but Content-Type says JSON. Send a JSON body or leave the header out.';
        break;
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        message = `The request body is too large: the limit is ${formatBytes(request.routeOptions.bodyLimit ?? 1024 * 1024)}.`;
        break;
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        message = takesMultipart(request)
          ? multipartFaults.notMultipart().message
          : `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here. Send application/json.`;
        break;
    }
    // Fastify's own refusals carry a status, not a code: the table's code for it, and that code's status.
    const code = codeForStatus(status) ?? errorCodes.badRequest;
    return { statusCode: statusForCode(code), body: { message, code }, log: false };
  }

  const body: ErrorResponse = {
    message: internalErrorMessage(String(request.id)),
    code: errorCodes.internal,
  };
  // Paid work that failed unexpectedly still had its credits given back before this answer.
  if (error instanceof WorkFailedError && error.refundedCredits > 0) body.refunded = true;
  return { statusCode: statusForCode(body.code), body, log: true };
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs (a URL with bad
 * percent-encoding), answered in the one shape too.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { statusCode, body } = toErrorResponse(error, request);
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

/** The one error handler (docs/contributing.md, habit 5): every failure answers `{message, code, errors?}`. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    // Every route's 4xx and 5xx answers are declared with the one error schema (a route may narrow
    // them with its own '4xx'): an error body can never fail serialization and turn into a 500.
    app.addHook('onRoute', (route) => {
      if (!route.schema) return;
      route.schema.response = { ...errorResponses, ...(route.schema.response as object | undefined) };
    });
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { statusCode, body, log } = toErrorResponse(error, request);
      if (log) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: body.code, statusCode }, body.message);
      const extras = request.routeOptions.config?.errorExtras?.(body);
      return reply
        .code(statusCode)
        .type('application/json; charset=utf-8')
        .send(extras ? { ...body, ...extras } : body);
    });
  },
  { name: 'error-handler' },
);
