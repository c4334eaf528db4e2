import { safeReturnPath } from '@altwise/contracts/billing';
import { messages } from '@altwise/contracts/messages';
import type { MouseEvent } from 'react';
import { notify } from '../../components/ui/notify.ts';
import { readUserId } from '../../lib/auth-storage.ts';
import { useCreateCheckoutSession } from './api/create-checkout-session.ts';
import { type CheckoutSelection, resolveCheckout } from './checkout-product.ts';

/**
 * Asks for the hosted checkout of a selection (the product spec §4), from a pricing link or the checkout page:
 * the request names the caller's user id and a pack's quantity; a failure is logged and toasted
 * 'Failed to initiate checkout'. On success the mutation's own handler leaves for the provider.
 */
export function requestCheckout(
  checkout: ReturnType<typeof useCreateCheckoutSession>,
  selection: CheckoutSelection,
): void {
  // A page that sent the person to buy credits (/plans?returnTo=/audit/…) gets them back after paying;
  // only a path on this site is passed on (the server checks it again).
  const returnPath = safeReturnPath(new URLSearchParams(window.location.search).get('returnTo'));
  checkout.mutate(
    {
      productId: selection.productId,
      userId: readUserId() ?? undefined,
      ...(returnPath ? { returnPath } : {}),
      ...(selection.product.kind === 'pack' ? { quantity: selection.quantity } : {}),
    },
    {
      onError: (error) => {
        console.error('Checkout could not be started.', error);
        notify.error(messages.checkout.failed);
      },
    },
  );
}

/**
 * The pricing checkout of the product spec §4 for a signed-in person: a click on a checkout link creates the
 * checkout session and goes straight to the provider's hosted checkout; a failure toasts 'Failed to
 * initiate checkout'. The link keeps its /checkout/{plan}?amount=… address, so a new tab, a copied
 * link or a click before the script has loaded still reaches the checkout page.
 */
export function useStartCheckout() {
  const checkout = useCreateCheckoutSession();

  const onClick = (href: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (checkout.isPending || checkout.isSuccess) return;
    const url = new URL(href, window.location.origin);
    const planParam = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const selection = resolveCheckout(planParam, url.searchParams);
    if (!selection) {
      // the product spec §5: an invalid plan id is logged only; no request is made.
      console.error(`Checkout: "${planParam}" is not a plan or product; nothing was requested.`);
      return;
    }
    requestCheckout(checkout, selection);
  };

  return { onClick, isBusy: checkout.isPending || checkout.isSuccess, variables: checkout.variables };
}
