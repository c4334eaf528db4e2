import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { Spinner } from './spinner.tsx';

export type SpinnerOverlayProps = {
  /** Visible and announced, e.g. 'Scraping Page... This may take a few moments.' */
  label: string;
  /** Optional second line, e.g. a percentage. */
  detail?: string;
};

/**
 * While the calling overlay is shown, the app behind it (#root) is inert and busy: keyboard and
 * screen-reader users cannot act on a page that is about to change.
 */
export function useInertApp(): void {
  useEffect(() => {
    const app = document.getElementById('root');
    if (!app) return;
    app.setAttribute('inert', '');
    app.setAttribute('aria-busy', 'true');
    return () => {
      app.removeAttribute('inert');
      app.removeAttribute('aria-busy');
    };
  }, []);
}

/**
 * A full-screen busy overlay. Render it while work runs and remove it after. While it is shown the app
 * behind it is inert, so keyboard and screen-reader users cannot act on a page that is about to change.
 */
export function SpinnerOverlay({ label, detail }: SpinnerOverlayProps) {
  useInertApp();

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/70 p-4">
      <div
        role="status"
        className="flex max-w-sm flex-col items-center gap-4 rounded-xl bg-white px-8 py-6 text-center shadow-xl"
      >
        <Spinner className="size-10 text-indigo-700" />
        <p className="font-semibold text-slate-900">{label}</p>
        {detail ? <p className="text-sm text-slate-700">{detail}</p> : null}
      </div>
    </div>,
    document.body,
  );
}
