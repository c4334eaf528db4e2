import type { ReactNode } from 'react';
import { AlertIcon, CheckCircleIcon, CloseIcon } from './icons.tsx';
import { Spinner } from './spinner.tsx';

export type MessageBannerType = 'error' | 'success' | 'loading';

const typeStyle: Record<MessageBannerType, string> = {
  error: 'border-red-300 bg-red-50 text-red-800',
  success: 'border-green-300 bg-green-50 text-green-800',
  loading: 'border-blue-300 bg-blue-50 text-blue-800',
};

export type MessageBannerProps = {
  type: MessageBannerType;
  children: ReactNode;
  /** Shows a dismiss button. */
  onDismiss?: () => void;
  className?: string;
};

/**
 * An inline message (the product spec §2 "Other"): error is red and interrupts (role=alert); success is green and
 * loading blue with a spinning icon, both polite (role=status).
 */
export function MessageBanner({ type, children, onDismiss, className = '' }: MessageBannerProps) {
  const icon =
    type === 'error' ? (
      <AlertIcon className="size-5 shrink-0" />
    ) : type === 'success' ? (
      <CheckCircleIcon className="size-5 shrink-0" />
    ) : (
      <Spinner className="size-5" />
    );
  return (
    <div
      role={type === 'error' ? 'alert' : 'status'}
      className={`flex items-start gap-3 rounded-md border px-4 py-3 text-sm ${typeStyle[type]} ${className}`}
    >
      <span className="mt-px">{icon}</span>
      <div className="flex-1">{children}</div>
      {onDismiss ? (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss message"
          className="-m-1 rounded p-1 hover:bg-black/5"
        >
          <CloseIcon className="size-4" />
        </button>
      ) : null}
    </div>
  );
}
