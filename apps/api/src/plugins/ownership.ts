import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../errors.ts';

/** The field the product spec keeps in some requests: the browser's idea of who it is. */
export const USER_ID_FIELD = 'userId';

export const notYourAccountMessage = 'You can only act for your own account.';

/**
 * The one rule (docs/contributing.md, habit 3): a `userId` the caller sends may only name the caller. Absent or
 * blank means "me"; anything else that is not the signed-in user's id (another id, a list, a number,
 * or any id when nobody is signed in) is 403 FORBIDDEN. Services never repeat this check.
 */
export function assertOwnUserId(request: FastifyRequest, requested: unknown): void {
  if (requested === undefined || requested === null) return;
  if (typeof requested === 'string' && requested.trim() === '') return;
  const callerId = (request.user as { id?: string } | null)?.id;
  if (typeof requested === 'string' && callerId !== undefined && requested.trim() === callerId) return;
  throw forbidden(notYourAccountMessage);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The parts of a multipart form, its `userId` field checked by the rule the moment it arrives. */
async function* gatedParts(
  request: FastifyRequest,
  parts: AsyncIterableIterator<Multipart>,
): AsyncGenerator<Multipart> {
  for await (const part of parts) {
    if (part.type === 'field' && part.fieldname === USER_ID_FIELD) assertOwnUserId(request, part.value);
    yield part;
  }
}

/**
 * Checks every `userId` of the request: in the path, the query and a JSON body (already parsed and
 * validated by the route's schema), and in a multipart form as the route reads it — `request.parts()`
 * is wrapped so that the field is checked when it arrives, before any later file is read.
 */
const checkUserIds: preHandlerAsyncHookHandler = async function checkUserIds(request) {
  for (const source of [request.params, request.query, request.body]) {
    if (isRecord(source)) assertOwnUserId(request, source[USER_ID_FIELD]);
  }
  if (typeof request.parts === 'function' && request.isMultipart()) {
    const parts = request.parts.bind(request);
    request.parts = (options) => gatedParts(request, parts(options));
  }
};

/**
 * The ownership gate for a route group that takes a `userId` (fastify/demo's
 * `plugins/custom/authorization.ts` + `autohooks.ts`): register it once at the top of the group,
 * `await app.register(ownershipGate)`, and every route of the group gets the check.
 *
 * It is added as the last preHandler of each route (through `onRoute`) rather than with
 * `addHook('preHandler')`, because instance hooks run before a route's own preHandlers: the caller
 * must be known (whichever hook authenticates) before the request's `userId` can be compared.
 */
export const ownershipGate = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const existing = route.preHandler;
      route.preHandler = [
        ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
        checkUserIds,
      ];
    });
  },
  { name: 'ownership-gate' },
);
