import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AppConfig } from '../../config.ts';
import { setBounded } from '../../lib/bounded-map.ts';
import { keptSecret } from '../../lib/kept-secret.ts';

const ISSUER = 'altwise';
const AUDIENCE = 'altwise-api';

/** What a session token says: who, and which session version it was issued under. */
export type SessionClaims = { userId: string; sessionVersion: number };

export type SessionTokens = {
  issue(claims: SessionClaims): Promise<string>;
  /** Null for anything that is not a valid, unexpired token signed with our secret. */
  verify(token: string): Promise<SessionClaims | null>;
};

/** How many verified tokens are remembered (ADR 039); the oldest is dropped first. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * HS256 JWTs: `sub` is the user id, `sv` the user's session version at issue time. A token verified
 * once is remembered, by its exact text, with its claims and expiry (ADR 039): verifying it again is
 * a map lookup instead of an HMAC, until it expires. Only tokens that passed verification are kept,
 * so a changed character is a different key and is verified in full.
 */
export function createSessionTokens(secret: string, expiresIn: string): SessionTokens {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { claims: SessionClaims; expiresAtMs: number }>();
  return {
    issue({ userId, sessionVersion }) {
      return new SignJWT({ sv: sessionVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose refuses a token from its `exp` second on; so does the cache.
        if (Date.now() < known.expiresAtMs) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sv !== 'number') return null;
        const claims = Object.freeze({ userId: payload.sub, sessionVersion: payload.sv });
        if (typeof payload.exp === 'number') {
          setBounded(verified, token, { claims, expiresAtMs: payload.exp * 1000 }, VERIFIED_TOKENS_KEPT);
        }
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/**
 * The signing secret: JWT_SECRET when set (always in production, config.ts insists). Otherwise a
 * random secret is made once and kept in `${DATA_DIR}/jwt-secret`, so restarting a development
 * server keeps everyone signed in.
 */
export async function resolveJwtSecret(config: AppConfig): Promise<string> {
  if (config.auth.jwtSecret) return config.auth.jwtSecret;
  return keptSecret(config.dataDir, 'jwt-secret', {
    minLength: 32,
    make: () => randomBytes(48).toString('base64url'),
  });
}
