import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@altwise/contracts/limits';

export type ToastType = 'success' | 'info' | 'error';
export type ToastPosition = 'top-right' | 'bottom-right';

export type Toast = {
  id: number;
  type: ToastType;
  message: string;
  position: ToastPosition;
  /** Milliseconds before it closes itself; paused while hovered or focused. */
  duration: number;
};

export type NotifyOptions = { position?: ToastPosition; duration?: number };

const defaultDuration: Record<ToastType, number> = {
  success: TOAST_SUCCESS_MS,
  info: TOAST_SUCCESS_MS,
  error: TOAST_ERROR_MS,
};

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function show(type: ToastType, message: string, options: NotifyOptions = {}): number {
  const id = nextId++;
  toasts = [
    ...toasts,
    {
      id,
      type,
      message,
      position: options.position ?? 'top-right',
      duration: options.duration ?? defaultDuration[type],
    },
  ];
  emit();
  return id;
}

/**
 * Toasts for the whole app (the product spec §2: top-right and bottom-right). Success and info close after 3 s,
 * errors after 5 s unless `duration` says otherwise. `<Toaster />` shows them and announces them.
 */
export const notify = {
  success: (message: string, options?: NotifyOptions) => show('success', message, options),
  info: (message: string, options?: NotifyOptions) => show('info', message, options),
  error: (message: string, options?: NotifyOptions) => show('error', message, options),
  dismiss(id: number): void {
    toasts = toasts.filter((toast) => toast.id !== id);
    emit();
  },
  clear(): void {
    toasts = [];
    emit();
  },
};

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}
