import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../errors.ts';
import type { AuthUser } from '../modules/accounts/service.ts';

export type { AuthUser };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook of every route that needs a signed-in user:
     * `app.get('/x', { onRequest: app.requireUser }, (request) => request.user.id)`.
     * Answers 401 UNAUTHORIZED for a missing, malformed, expired or tampered token, and for a token
     * whose user is gone or whose session was ended by a password change or reset. It runs before
     * the body is read or validated, so a caller without a valid token learns nothing but 401.
     */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The caller, set by `app.requireUser`; read it only in routes that use that hook. */
    user: AuthUser;
  }
}

export const sessionExpiredMessage = 'Your session has expired or is no longer valid. Please log in again.';

const bearer = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i;

/** Who is calling comes only from the verified `Authorization: Bearer` token (STYLE.md habit 3). */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { authenticate: (token: string) => Promise<AuthUser | null> }) => {
    app.decorateRequest('user', null as unknown as AuthUser);
    const requireUser = async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      if (!header) throw unauthorized();
      const token = bearer.exec(header)?.[1];
      if (!token) throw unauthorized(sessionExpiredMessage);
      const user = await options.authenticate(token);
      if (!user) throw unauthorized(sessionExpiredMessage);
      request.user = user;
    };
    app.decorate('requireUser', requireUser);
    // Authentication before validation (issue 12): a route documented as needing the bearer token
    // must authenticate in onRequest, which Fastify runs before parsing and validating the body.
    app.addHook('onRoute', (route) => {
      const onRequest = [route.onRequest ?? []].flat();
      const needsToken = (route.schema?.security ?? []).some((scheme) => 'bearerAuth' in scheme);
      const misplaced = [route.preValidation ?? [], route.preHandler ?? []].flat().includes(requireUser);
      if (misplaced || needsToken !== onRequest.includes(requireUser))
        throw new Error(
          `${route.method} ${route.url}: a route with security bearerAuth takes \`onRequest: app.requireUser\` (and only such a route).`,
        );
    });
  },
  { name: 'auth' },
);
