import { type MouseEvent, useCallback, useEffect, useRef } from 'react';

/**
 * A busy button is disabled, which drops keyboard focus to the page. Remember the clicked button with
 * `remember(event)`; once `busy` is false again, focus goes back to it (unless focus has moved on).
 */
export function useReturnFocus(busy: boolean) {
  const target = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (busy || !target.current) return;
    const element = target.current;
    target.current = null;
    const active = document.activeElement;
    if (element.isConnected && (!active || active === document.body)) element.focus();
  }, [busy]);
  return useCallback((event: MouseEvent<HTMLElement>) => {
    target.current = event.currentTarget;
  }, []);
}
