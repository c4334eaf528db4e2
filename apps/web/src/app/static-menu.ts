import { focusableIn, trapTab } from '../components/ui/focusable.ts';

/**
 * The header's mobile menu on a prerendered content page that React does not take over (src/public.ts,
 * ADR 027). The markup is the one PublicHeader prerendered (the button with aria-controls and the closed
 * <dialog>); this gives it the behaviour of components/ui/dialog.tsx: the button opens it as a modal and
 * sets aria-expanded, focus moves to its first link, Tab stays inside, and Escape, the Close button or a
 * click on the backdrop close it and return focus to the button. Its links are ordinary page loads.
 * Returns a function that removes the listeners.
 */
export function enhanceMobileMenu(root: ParentNode = document): () => void {
  const button = root.querySelector<HTMLButtonElement>('button[aria-haspopup="dialog"][aria-controls]');
  const id = button?.getAttribute('aria-controls');
  const dialog = id ? root.querySelector<HTMLDialogElement>(`dialog#${CSS.escape(id)}`) : null;
  if (!button || !dialog) return () => {};
  const menu = dialog;
  const opener = button;

  const isOpen = () => menu.open || menu.hasAttribute('open');
  const open = () => {
    if (!isOpen()) {
      if (typeof menu.showModal === 'function') menu.showModal();
      else menu.setAttribute('open', '');
    }
    opener.setAttribute('aria-expanded', 'true');
    (focusableIn(menu)[0] ?? menu).focus();
  };
  const close = (returnFocus: boolean) => {
    if (typeof menu.close === 'function') menu.close();
    menu.removeAttribute('open');
    opener.setAttribute('aria-expanded', 'false');
    if (returnFocus) opener.focus();
  };

  const onOpenClick = () => open();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else {
      trapTab(menu, event);
    }
  };
  const onCancel = (event: Event) => {
    event.preventDefault();
    close(true);
  };
  const onMenuClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    // A click on the backdrop lands on the <dialog> itself.
    if (target === menu || target?.closest('button[aria-label="Close"]')) close(true);
    // A link loads its page; the menu is closed for when the browser comes back to this one.
    else if (target?.closest('a[href]')) close(false);
  };

  opener.addEventListener('click', onOpenClick);
  menu.addEventListener('keydown', onKeyDown);
  menu.addEventListener('cancel', onCancel);
  menu.addEventListener('click', onMenuClick);
  return () => {
    opener.removeEventListener('click', onOpenClick);
    menu.removeEventListener('keydown', onKeyDown);
    menu.removeEventListener('cancel', onCancel);
    menu.removeEventListener('click', onMenuClick);
  };
}
