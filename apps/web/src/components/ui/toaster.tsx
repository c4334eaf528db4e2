import { useEffect, useRef, useSyncExternalStore } from 'react';
import { AlertIcon, CheckCircleIcon, CloseIcon, InfoIcon } from './icons.tsx';
import {
  getToasts,
  notify,
  subscribeToToasts,
  type Toast,
  type ToastPosition,
  type ToastType,
} from './notify.ts';

const typeLabel: Record<ToastType, string> = { success: 'Success', info: 'Information', error: 'Error' };

const typeStyle: Record<ToastType, { box: string; icon: string; Icon: typeof InfoIcon }> = {
  success: { box: 'border-green-700', icon: 'text-green-700', Icon: CheckCircleIcon },
  info: { box: 'border-blue-700', icon: 'text-blue-700', Icon: InfoIcon },
  error: { box: 'border-red-700', icon: 'text-red-700', Icon: AlertIcon },
};

const positionStyle: Record<ToastPosition, { box: string; label: string }> = {
  'top-right': { box: 'top-4', label: 'Notifications (top right)' },
  'bottom-right': { box: 'bottom-4', label: 'Notifications (bottom right)' },
};

function ToastItem({ toast }: { toast: Toast }) {
  const remaining = useRef(toast.duration);
  const startedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Closing pauses while the pointer or focus is on the toast, so nobody loses a message mid-read (WCAG 2.2.1).
  const start = () => {
    clearTimeout(timer.current);
    startedAt.current = Date.now();
    timer.current = setTimeout(() => notify.dismiss(toast.id), remaining.current);
  };
  const pause = () => {
    clearTimeout(timer.current);
    remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the timer starts once per toast.
  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
  }, []);

  const style = typeStyle[toast.type];
  return (
    <li
      className="pointer-events-auto w-full"
      onMouseEnter={pause}
      onMouseLeave={start}
      onFocus={pause}
      onBlur={start}
    >
      <div
        // Errors interrupt a screen reader; the others are read by the region's polite live setting. The
        // role sits inside the list item: a list item itself may not take role=alert (axe aria-allowed-role).
        role={toast.type === 'error' ? 'alert' : undefined}
        className={`flex w-full items-start gap-3 rounded-lg border-l-4 bg-white p-4 text-sm text-slate-900 shadow-lg ring-1 ring-slate-900/10 ${style.box}`}
      >
        <style.Icon className={`mt-0.5 size-5 shrink-0 ${style.icon}`} />
        <span className="sr-only">{typeLabel[toast.type]}:</span>
        <p className="flex-1">{toast.message}</p>
        <button
          type="button"
          onClick={() => notify.dismiss(toast.id)}
          className="-m-1 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
          aria-label="Dismiss notification"
        >
          <CloseIcon className="size-4" />
        </button>
      </div>
    </li>
  );
}

function ToastRegion({ position, toasts }: { position: ToastPosition; toasts: readonly Toast[] }) {
  const style = positionStyle[position];
  // The region stays mounted even when empty: a live region must exist before text is added to it.
  return (
    <section
      aria-live="polite"
      aria-label={style.label}
      className={`pointer-events-none fixed right-4 left-4 z-50 flex justify-end sm:left-auto sm:w-96 ${style.box}`}
    >
      {toasts.length > 0 && (
        <ol className="flex w-full flex-col gap-2">
          {toasts.map((toast) => (
            <ToastItem key={toast.id} toast={toast} />
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * Shows the toasts of `notify` in the two corners. Each message is in the page once, in a live region
 * that screen readers announce; errors use role="alert" so they interrupt.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
  return (
    <>
      <ToastRegion position="top-right" toasts={toasts.filter((toast) => toast.position === 'top-right')} />
      <ToastRegion
        position="bottom-right"
        toasts={toasts.filter((toast) => toast.position === 'bottom-right')}
      />
    </>
  );
}
