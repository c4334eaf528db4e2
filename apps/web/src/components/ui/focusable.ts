/** What Tab can reach inside a dialog: shared by Dialog and the prerendered pages' menu (app/static-menu.ts). */
const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(focusableSelector));
}

/** The part of a DOM or React keyboard event that trapTab reads. */
type TabKeyEvent = { key: string; shiftKey: boolean; preventDefault: () => void };

/**
 * Keeps Tab and Shift+Tab inside `container` (a modal dialog): from the last item to the first and back.
 * showModal() makes the page behind inert, but Tab could still leave for the browser's own controls.
 */
export function trapTab(container: HTMLElement, event: TabKeyEvent): void {
  if (event.key !== 'Tab') return;
  const items = focusableIn(container);
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    event.preventDefault();
  } else if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
