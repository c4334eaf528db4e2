import { importJWK, SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

export type GoogleTestIdentity = { sub: string; email: string; givenName: string; familyName: string };

/** A Google ID token as Google would sign it, but with the key the global setup made. */
export async function signGoogleIdToken(identity: GoogleTestIdentity): Promise<string> {
  const jwk = JSON.parse(inject('googlePrivateJwk')) as { kid: string };
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT({
    email: identity.email,
    email_verified: true,
    given_name: identity.givenName,
    family_name: identity.familyName,
    name: `${identity.givenName} ${identity.familyName}`,
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
    .setIssuer('https://accounts.google.com')
    .setAudience(inject('googleClientId'))
    .setSubject(identity.sub)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

/**
 * Serves a tiny stand-in for https://accounts.google.com/gsi/client: `google.accounts.id` with
 * initialize/renderButton/prompt, whose button hands the page's callback `credential`. Also records the
 * client id the page initialised with, in `window.__gsiClientId`.
 */
export async function fakeGoogleIdentityScript(page: Page, credential: string) {
  const script = `
    (() => {
      let options = null;
      window.google = { accounts: { id: {
        initialize(o) { options = o; window.__gsiClientId = o.client_id; },
        prompt() {},
        renderButton(parent, config) {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = config && config.text === 'signup_with' ? 'Sign up with Google' : 'Sign in with Google';
          button.addEventListener('click', () => options.callback({ credential: ${JSON.stringify(credential)}, select_by: 'btn' }));
          parent.appendChild(button);
        },
      } } };
    })();`;
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: script }),
  );
}
