/**
 * Google Identity Services (https://developers.google.com/identity/gsi/web): the script, the few calls
 * we make, and reading the informational claims of the credential it hands back.
 */
export const GOOGLE_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

export type GoogleCredentialResponse = { credential?: string };

type GoogleButtonOptions = {
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue' | 'filled_black';
  size?: 'large' | 'medium' | 'small';
  text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
  shape?: 'rectangular' | 'pill' | 'circle' | 'square';
  logo_alignment?: 'left' | 'center';
  width?: number;
  locale?: string;
};

export type GoogleAccountsId = {
  initialize: (options: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    ux_mode?: 'popup' | 'redirect';
    context?: 'signin' | 'signup' | 'use';
  }) => void;
  renderButton: (parent: HTMLElement, options: GoogleButtonOptions) => void;
  prompt?: () => void;
};

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

export function googleAccountsId(): GoogleAccountsId | undefined {
  return window.google?.accounts?.id;
}

let loading: Promise<void> | null = null;

/** Adds the script once; after a failed load the next call tries again. */
export function loadGoogleScript(): Promise<void> {
  if (googleAccountsId()) return Promise.resolve();
  if (loading) return loading;
  loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error('The Google sign-in script could not be loaded.'));
    };
    document.head.append(script);
  });
  return loading;
}

export type GoogleClaims = {
  email?: string | undefined;
  sub?: string | undefined;
  given_name?: string | undefined;
  family_name?: string | undefined;
};

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The claims the product spec §3 reads from the credential (email, sub, given_name, family_name). Informational
 * only: the server verifies the signed token itself and ignores these when they disagree.
 */
export function decodeGoogleCredential(credential: string): GoogleClaims {
  try {
    const part = credential.split('.')[1] ?? '';
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof payload !== 'object' || payload === null) return {};
    const claims = payload as Record<string, unknown>;
    return {
      email: text(claims.email),
      sub: text(claims.sub),
      given_name: text(claims.given_name),
      family_name: text(claims.family_name),
    };
  } catch {
    return {};
  }
}
