import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPublicPage } from './public-page.ts';

function prerender(path: string) {
  window.history.replaceState(null, '', '/');
  document.body.innerHTML = `<div id="root" data-prerendered="${path}"><main><h1>Accurate alt text</h1></main></div>`;
}

afterEach(() => {
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('the entry of the prerendered content pages', () => {
  it('leaves a signed-out visitor on the HTML, and loads the app once they sign in in another tab', () => {
    prerender('/');
    const loadApp = vi.fn();
    startPublicPage(loadApp);
    expect(loadApp).not.toHaveBeenCalled();

    window.dispatchEvent(new StorageEvent('storage', { key: 'theme' }));
    expect(loadApp).not.toHaveBeenCalled();
    localStorage.setItem('token', 'signed-in-elsewhere');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    window.dispatchEvent(new Event('pageshow'));
    expect(loadApp).toHaveBeenCalledTimes(1);
  });

  it('loads the app at once for a stored session', () => {
    prerender('/');
    localStorage.setItem('token', 'stored-token');
    const loadApp = vi.fn();
    startPublicPage(loadApp);
    expect(loadApp).toHaveBeenCalledTimes(1);
  });

  it("loads the app when the HTML is another address's page", () => {
    prerender('/blogs');
    const loadApp = vi.fn();
    startPublicPage(loadApp);
    expect(loadApp).toHaveBeenCalledTimes(1);
  });
});
