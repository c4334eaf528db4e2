import { API_KEY_PREFIX } from '@altwise/contracts/api-keys';
import { errorCodes } from '@altwise/contracts/errors';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyPluginOptions,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import { AppError, unauthorized } from '../errors.ts';
import type { AuthUser } from '../modules/accounts/service.ts';
import type { ApiKeyCaller, ApiKeyUse } from '../modules/api-keys/service.ts';

export type { AuthUser };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The onRequest hook this plugin puts first on every route not marked public (ADR 047); routes
     * never list it themselves.
     * Answers 401 UNAUTHORIZED for a missing, malformed, expired or tampered token, and for a token
     * whose user is gone or whose session was ended by a password change or reset. It runs before
     * the body is read or validated, so a caller without a valid token learns nothing but 401.
     */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The caller, set by `app.requireUser`; read it only in protected routes (every route not public). */
    user: AuthUser;
    /** The API key the caller used (ADR 028); null when they came with a session token. */
    apiKeyId: string | null;
  }
  interface FastifyContextConfig {
    /**
     * Only a signed-in session may call this route, never an API key (ADR 028): managing keys and
     * webhooks, password, email, account deletion, payments. A key gets 403 SESSION_REQUIRED.
     */
    sessionOnly?: boolean;
    /**
     * Anyone may call this route, signed in or not (ADR 047). Every route without it is protected:
     * the auth plugin adds `requireUser` and the document's security to it.
     */
    public?: boolean;
  }
}

export const sessionExpiredMessage = 'Your session has expired or is no longer valid. Please log in again.';

export const sessionRequiredMessage =
  'This call needs a signed-in session; API keys cannot manage keys or webhooks, change the password, email or account, or pay.';

const bearer = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i;

/** What the auth plugin needs of the API keys module (ADR 028). */
export type ApiKeyAuthenticator = {
  authenticate: (key: string) => Promise<ApiKeyCaller | null>;
  use: (keyId: string) => Promise<ApiKeyUse>;
};

/**
 * Who is calling comes only from the verified `Authorization: Bearer` credential (docs/contributing.md, habit 3):
 * a session token, or an API key (`ak_…`, ADR 028). This is the one place that decides which.
 */
export const authPlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      authenticate: (token: string) => Promise<AuthUser | null>;
      apiKeys: ApiKeyAuthenticator;
    },
  ) => {
    app.decorateRequest('user', null as unknown as AuthUser);
    app.decorateRequest('apiKeyId', null);
    const requireUser = async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers.authorization;
      if (!header) throw unauthorized();
      const token = bearer.exec(header)?.[1];
      if (!token) throw unauthorized(sessionExpiredMessage);
      if (token.startsWith(API_KEY_PREFIX)) {
        const caller = await options.apiKeys.authenticate(token);
        if (!caller) throw unauthorized('This API key is unknown or has been revoked.');
        if (request.routeOptions.config.sessionOnly)
          throw new AppError(errorCodes.sessionRequired, sessionRequiredMessage);
        const use = await options.apiKeys.use(caller.keyId);
        if (!use.allowed) {
          reply.header('retry-after', String(use.retryAfterSeconds));
          throw new AppError(
            errorCodes.rateLimited,
            `This API key made too many requests this minute. Please wait ${use.retryAfterSeconds} seconds and try again.`,
          );
        }
        request.user = caller.user;
        request.apiKeyId = caller.keyId;
        return;
      }
      const user = await options.authenticate(token);
      if (!user) throw unauthorized(sessionExpiredMessage);
      request.user = user;
    };
    app.decorate('requireUser', requireUser);
    // Protected by default (ADR 047): every route registered after this plugin authenticates in
    // onRequest, before its body is parsed or validated, unless it is marked public.
    app.addHook('onRoute', function protectByDefault(route) {
      const where = `${route.method} ${route.url}`;
      const lists = [route.onRequest, route.preParsing, route.preValidation, route.preHandler].flat();
      if (lists.includes(requireUser) || route.schema?.security)
        throw new Error(
          `${where}: authentication and its security are added by the auth plugin; a route names neither (mark an open route \`config: { public: true }\`).`,
        );
      if (route.config?.public || (this as PublicContext)[publicContext]) {
        if (route.config?.sessionOnly) throw new Error(`${where}: a public route cannot be session-only.`);
        return;
      }
      route.onRequest = [requireUser, ...[route.onRequest ?? []].flat()];
      // The document says which routes an API key may call: every protected one not session-only.
      route.schema = {
        ...route.schema,
        security: route.config?.sessionOnly ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { apiKey: [] }],
      };
    });
  },
  { name: 'auth' },
);

const publicContext = Symbol('altwise.publicRoutes');
type PublicContext = FastifyInstance & { [publicContext]?: true };

/**
 * Registers a plugin whose routes are all public, for plugins of libraries that cannot mark their
 * routes (the static files of the web build, the API reference's pages).
 */
export function publicRoutes<Options extends FastifyPluginOptions>(
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
): FastifyPluginAsync<Options> {
  return async (app, options) => {
    (app as PublicContext)[publicContext] = true;
    await app.register(plugin as FastifyPluginAsync<Options>, options);
  };
}
