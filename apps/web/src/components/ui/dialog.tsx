import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { focusableIn, trapTab } from './focusable.ts';
import { CloseIcon } from './icons.tsx';

export type DialogProps = {
  open: boolean;
  /** Called on Escape, the close button and a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  id?: string;
  /** Where focus goes on open; otherwise the first focusable element inside. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Classes of the dialog box, e.g. to turn it into a side sheet. */
  className?: string;
  /** Hide the close button when the content has its own (e.g. a single OK button). */
  showCloseButton?: boolean;
};

/**
 * A modal dialog on the native <dialog> element: showModal() makes the page behind it inert. We also trap
 * Tab, close on Escape and return focus to whatever opened it, so it behaves the same where showModal is
 * missing (older browsers, jsdom).
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  id,
  initialFocusRef,
  className = 'm-auto w-[min(32rem,calc(100%-2rem))] rounded-xl p-0 shadow-xl',
  showCloseButton = true,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    const target = initialFocusRef?.current ?? focusableIn(dialog)[0] ?? dialog;
    target.focus();
    return () => {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      // Only take focus back if it is still inside the dialog or lost; a navigation may have moved it on.
      const active = document.activeElement;
      if (opener?.isConnected && (!active || active === document.body || dialog.contains(active))) {
        opener.focus();
      }
    };
  }, [open, initialFocusRef]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (ref.current) trapTab(ref.current, event);
  };

  return (
    <dialog
      ref={ref}
      id={id}
      aria-labelledby={titleId}
      aria-modal="true"
      className={`bg-white text-slate-900 ${className}`}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself; clicks on the content land on its children.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="flex h-full flex-col p-6">
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {showCloseButton ? (
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="-m-2 rounded-md p-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
            >
              <CloseIcon />
            </button>
          ) : null}
        </div>
        {children}
      </div>
    </dialog>
  );
}
