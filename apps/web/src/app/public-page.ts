import { readToken } from '../lib/auth-storage.ts';
import { enhanceMobileMenu } from './static-menu.ts';

const normalizePath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * What src/public.ts does on a prerendered content page (ADR 027). For a signed-out visitor the HTML is the
 * page and only the header's menu gets a script; the app is loaded (`loadApp`) when the page needs it: a
 * stored session (signed-in header), a sign-in in another tab, a return to this page from the back/forward
 * cache after signing in, or HTML that is not this address's prerendered page.
 */
export function startPublicPage(
  loadApp: () => unknown,
  /**
   * What the page itself runs for a signed-out visitor (the sign-in pages' form, ADR 038). It gets
   * `handOver`, which loads the app once (after `beforeApp`, e.g. the page's own navigation), and returns
   * its stop function, called once the app has started.
   */
  startPage?: (handOver: (beforeApp?: () => Promise<void>) => void) => () => void,
): void {
  const container = document.getElementById('root');
  const prerendered =
    container?.firstElementChild != null &&
    container.dataset.prerendered === normalizePath(window.location.pathname);
  if (!prerendered || readToken() !== null) {
    loadApp();
    return;
  }
  const stopMenu = enhanceMobileMenu(document);
  let handedOver = false;
  let stopPage = () => {};
  const handOver = (beforeApp?: () => Promise<void>) => {
    if (handedOver) return;
    handedOver = true;
    window.removeEventListener('storage', takeOverWhenSignedIn);
    window.removeEventListener('pageshow', takeOverWhenSignedIn);
    const start = () => {
      stopMenu();
      return Promise.resolve(loadApp()).finally(() => stopPage());
    };
    void (beforeApp ? beforeApp().then(start) : start());
  };
  const takeOverWhenSignedIn = () => {
    if (readToken() !== null) handOver();
  };
  window.addEventListener('storage', takeOverWhenSignedIn);
  window.addEventListener('pageshow', takeOverWhenSignedIn);
  if (startPage) stopPage = startPage(handOver);
}
