import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export type FakeGoogle = {
  /** GOOGLE_JWKS_URL for the app under test. */
  jwksUrl: string;
  clientId: string;
  /** A Google-like ID token signed with the published key, unless `forge` signs with another one. */
  idToken(
    claims?: Partial<JWTPayload> & Record<string, unknown>,
    options?: { forge?: boolean; expiresIn?: string | number },
  ): Promise<string>;
  close(): Promise<void>;
};

/** Google's side of sign-in, played locally: an RSA key, its JWKS over HTTP on 127.0.0.1, signed ID tokens. */
export async function startFakeGoogle(
  clientId = 'test-client.apps.googleusercontent.com',
): Promise<FakeGoogle> {
  const kid = 'test-key-1';
  const real = await generateKeyPair('RS256');
  const forger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(real.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    clientId,
    async idToken(claims = {}, options = {}) {
      const { sub = '1098765432101234567890', ...rest } = claims;
      return new SignJWT({
        iss: 'https://accounts.google.com',
        aud: clientId,
        email: 'grace@example.com',
        email_verified: true,
        given_name: 'Grace',
        family_name: 'Hopper',
        ...rest,
      })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setSubject(String(sub))
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '1h')
        .sign(options.forge ? forger.privateKey : real.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
