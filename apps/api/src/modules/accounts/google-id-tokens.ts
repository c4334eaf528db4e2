import { accountMessages } from '@altwise/contracts/auth';
import { errorCodes } from '@altwise/contracts/errors';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { AppError, unauthorized } from '../../errors.ts';

/** What we take from a verified Google ID token; nothing else from the browser is believed. */
export type GoogleIdentity = {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
};

export type GoogleIdTokenVerifier = (credential: string) => Promise<GoogleIdentity>;

const googleIssuers = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Verifies a Google Sign-In credential the way Google documents it: an RS256 signature by one of
 * the keys published at `jwksUrl` (cached by jose, refetched when an unknown key id appears), `aud`
 * equal to our client id, a Google issuer, not expired, and a verified email address.
 */
export function createGoogleIdTokenVerifier(options: {
  clientId: string;
  jwksUrl: string;
}): GoogleIdTokenVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    timeoutDuration: 5000,
    cooldownDuration: 30_000,
  });
  return async (credential) => {
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(credential, keys, {
        algorithms: ['RS256'],
        audience: options.clientId,
        issuer: googleIssuers,
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: 30,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized(accountMessages.googleExpired);
      const keysUnreachable =
        !(error instanceof joseErrors.JOSEError) ||
        error instanceof joseErrors.JWKSTimeout ||
        error.code === 'ERR_JOSE_GENERIC';
      if (keysUnreachable) {
        // Google's key set could not be fetched: our problem, not the person's.
        throw new AppError(
          errorCodes.badGateway,
          'Google sign-in is unavailable right now. Please try again.',
          {
            cause: error,
          },
        );
      }
      throw unauthorized(accountMessages.googleInvalid);
    }
    const email = typeof payload.email === 'string' ? payload.email.trim() : '';
    if (!email || typeof payload.sub !== 'string') throw unauthorized(accountMessages.googleInvalid);
    if (payload.email_verified !== true && payload.email_verified !== 'true') {
      throw unauthorized(accountMessages.googleUnverified);
    }
    const given = typeof payload.given_name === 'string' ? payload.given_name : '';
    const family = typeof payload.family_name === 'string' ? payload.family_name : '';
    return {
      sub: payload.sub,
      email,
      firstName: given.slice(0, 100),
      lastName: family.slice(0, 100),
    };
  };
}
