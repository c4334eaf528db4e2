import { GOOGLE_SCRIPT_RETRIES, GOOGLE_SCRIPT_RETRY_MS } from '@altwise/contracts/limits';
import { useEffect, useRef, useState } from 'react';
import { usePublicConfig } from '../api/get-public-config.ts';
import { googleAccountsId, loadGoogleScript } from '../google-identity.ts';

export type GoogleSignInProps = {
  /** 'signup' on the register screen, 'signin' on the login screen (the button's wording). */
  mode: 'signup' | 'signin';
  onCredential: (credential: string) => void;
};

/**
 * The Google button and the 'OR' divider under it (the product spec §2). Nothing at all when the server has no
 * Google client id. The script is loaded from Google; initialising the button is retried up to
 * GOOGLE_SCRIPT_RETRIES times, GOOGLE_SCRIPT_RETRY_MS apart (the product spec §7), then the person is told.
 */
export function GoogleSignIn({ mode, onCredential }: GoogleSignInProps) {
  const config = usePublicConfig();
  const clientId = config.data?.googleClientId ?? null;
  const container = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  callback.current = onCredential;
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    let rendered = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let retries = 0;

    const render = () => {
      const id = googleAccountsId();
      const parent = container.current;
      if (cancelled || rendered || !id || !parent) return;
      id.initialize({
        client_id: clientId,
        callback: (response) => {
          if (response.credential) callback.current(response.credential);
        },
        context: mode === 'signup' ? 'signup' : 'signin',
      });
      parent.replaceChildren();
      id.renderButton(parent, {
        type: 'standard',
        theme: 'outline',
        size: 'large',
        text: mode === 'signup' ? 'signup_with' : 'signin_with',
        shape: 'rectangular',
        logo_alignment: 'left',
        width: Math.min(400, Math.max(200, Math.round(parent.clientWidth || 320))),
      });
      rendered = true;
      if (timer) clearTimeout(timer);
      setUnavailable(false);
    };

    // Try now, then once a second; a script that arrives in between renders the button at once.
    const attempt = () => {
      render();
      if (cancelled || rendered) return;
      if (retries >= GOOGLE_SCRIPT_RETRIES) {
        setUnavailable(true);
        return;
      }
      retries += 1;
      timer = setTimeout(() => {
        loadGoogleScript().then(render, () => undefined);
        attempt();
      }, GOOGLE_SCRIPT_RETRY_MS);
    };

    loadGoogleScript().then(render, () => undefined);
    attempt();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [clientId, mode]);

  if (!clientId) return null;

  return (
    <div>
      <div ref={container} className="flex min-h-11 justify-center" />
      {unavailable ? (
        <p role="status" className="mt-2 text-center text-sm text-slate-700">
          Google sign-in could not be loaded. Please use your email address instead, or try again later.
        </p>
      ) : null}
      <div className="my-6 flex items-center gap-3">
        <span className="h-px flex-1 bg-slate-300" />
        <span className="text-sm font-semibold text-slate-700">OR</span>
        <span className="h-px flex-1 bg-slate-300" />
      </div>
    </div>
  );
}
