import { hostedCheckoutQuerySchema } from '@altwise/contracts/billing';
import { errorCodes, statusForCode } from '@altwise/contracts/error-codes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { HostedCheckout, SandboxPaymentService } from './sandbox-payment-service.ts';

/**
 * The sandbox provider's hosted checkout, served by this app at /buy/{productId} (the path Dodo
 * uses): GET shows the order, the buyer (not editable) and a card form; POST "charges" a test card,
 * sends the signed webhooks to our own endpoint, and redirects to redirect_url. Plain server-rendered
 * HTML with no script, so it works wherever the API runs.
 *
 * Only a checkout session a signed-in user created can be shown or paid: the link carries its id
 * and the checkout token made with it (ADR 020). The order, the quantity and the account all come
 * from the session; the link's the product spec parameters (quantity, names, email) are never read.
 */

/** The link's parameters: the product spec's, plus the checkout token. */
const linkSchema = hostedCheckoutQuerySchema.extend({ checkout_token: z.string().max(200).optional() });

const usd = (amount: number) => `$${amount.toFixed(2)}`;

/** Only this origin may be sent back to: a path (not `//host`) or an absolute URL on our origin. */
export function safeRedirectUrl(raw: string | undefined, allowedOrigins: string[]): string | null {
  const value = raw?.trim() || '/dashboard';
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  try {
    const url = new URL(value);
    return allowedOrigins.includes(url.origin) ? url.toString() : null;
  } catch {
    return null;
  }
}

function withPaymentResult(redirectUrl: string, paymentId: string): string {
  const absolute = !redirectUrl.startsWith('/');
  const url = new URL(redirectUrl, 'http://sandbox.invalid');
  url.searchParams.set('payment_id', paymentId);
  url.searchParams.set('status', 'succeeded');
  return absolute ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
}

const styles = `
  :root { color-scheme: light; }
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f3f4f6; color: #111827; }
  main { max-width: 32rem; margin: 2rem auto; background: #ffffff; border-radius: 0.75rem; padding: 1.5rem 2rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
  h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
  p.note { color: #374151; margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  label { display: block; font-weight: 600; margin-top: 0.75rem; }
  input { width: 100%; box-sizing: border-box; padding: 0.5rem; margin-top: 0.25rem; border: 1px solid #6b7280; border-radius: 0.375rem; font-size: 1rem; color: #111827; background: #ffffff; }
  input[readonly] { background: #f3f4f6; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
  button { margin-top: 1.25rem; width: 100%; padding: 0.75rem; border: 0; border-radius: 0.375rem; background: #3730a3; color: #ffffff; font-size: 1rem; font-weight: 600; cursor: pointer; }
  button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .error { margin: 1rem 0 0; padding: 0.75rem; border-radius: 0.375rem; background: #fef2f2; color: #991b1b; border: 1px solid #991b1b; }
  .total { font-size: 1.1rem; font-weight: 700; }
  a { color: #3730a3; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

function errorPage(message: string): string {
  return page(
    'Checkout unavailable – Altwise sandbox',
    `<h1>Checkout unavailable</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>\n<p><a href="/plans">Back to pricing</a></p>`,
  );
}

type LinkFields = { redirectUrl: string; checkoutToken: string };

function checkoutPage(checkout: HostedCheckout, link: LinkFields, error?: string): string {
  const { product, quantity, buyer } = checkout;
  const total = product.amount * quantity;
  const item =
    product.kind === 'plan'
      ? `${product.label} plan – ${product.credits.toLocaleString('en-US')} credits per ${product.period === 'monthly' ? 'month' : 'year'}`
      : `Credit pack (${product.credits} credits) × ${quantity}`;
  const hidden = (name: string, value: string | number) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(String(value))}">`;
  const e = escapeHtml;
  return page(
    `Pay ${usd(total)} – Altwise sandbox checkout`,
    `<h1>Altwise checkout</h1>
<p class="note">Sandbox payments: no real money moves. Pay with the test card 4242 4242 4242 4242 (any future expiry, any CVC); 4000 0000 0000 0002 is declined.</p>
<h2>Order</h2>
<dl>
<dt>Item</dt><dd>${e(item)}</dd>
<dt>Total</dt><dd class="total">${usd(total)}${product.kind === 'plan' ? (product.period === 'monthly' ? ' per month' : ' per year') : ''}</dd>
</dl>
<form method="post" action="/buy/${encodeURIComponent(product.id)}" novalidate>
${hidden('redirect_url', link.redirectUrl)}
${hidden('metadata_checkout_id', checkout.checkoutId)}
${hidden('checkout_token', link.checkoutToken)}
<h2>Customer</h2>
<div class="row">
<div><label for="firstName">First name</label><input id="firstName" value="${e(buyer.firstName)}" readonly autocomplete="given-name"></div>
<div><label for="lastName">Last name</label><input id="lastName" value="${e(buyer.lastName)}" readonly autocomplete="family-name"></div>
</div>
<label for="email">Email</label><input id="email" type="email" value="${e(buyer.email)}" readonly autocomplete="email">
<h2>Card</h2>
<label for="cardNumber">Card number</label><input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required${error ? ' aria-describedby="payment-error" aria-invalid="true"' : ''}>
<div class="row">
<div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="12/34" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div>
</div>
${error ? `<p id="payment-error" class="error" role="alert">${e(error)}</p>` : ''}
<button type="submit">Pay ${usd(total)}</button>
</form>`,
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

const invalidLink =
  'This checkout link is not valid: its redirect address is not allowed or a parameter is malformed.';

export async function sandboxCheckoutRoutes(
  app: FastifyInstance,
  options: { payments: SandboxPaymentService; publicUrl: string },
) {
  const { payments } = options;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const allowedOrigins = (request: FastifyRequest) => {
    const origins = [new URL(options.publicUrl).origin];
    if (request.host) origins.push(`${request.protocol}://${request.host}`);
    return origins;
  };

  /** The link's checkout id, token and redirect address; null when a parameter is unusable. */
  const readLink = (request: FastifyRequest, source: unknown) => {
    const parsed = linkSchema.safeParse(source && typeof source === 'object' ? source : {});
    // Oversized or malformed parameters make the link unusable, like a foreign redirect.
    const redirectUrl = parsed.success
      ? safeRedirectUrl(parsed.data.redirect_url, allowedOrigins(request))
      : null;
    if (!parsed.success || !redirectUrl) return null;
    return {
      checkoutId: parsed.data.metadata_checkout_id ?? '',
      link: { redirectUrl, checkoutToken: parsed.data.checkout_token ?? '' } satisfies LinkFields,
    };
  };

  /** A refusal (403/404/409) as a page; anything else goes on to the error handler. */
  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
    return reply.code(error.statusCode).send(errorPage(error.message));
  };

  app.get<{ Params: { productId: string } }>(
    '/buy/:productId',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const link = readLink(request, request.query);
      if (!link) return reply.code(statusForCode(errorCodes.badRequest)).send(errorPage(invalidLink));
      try {
        const checkout = await payments.openHostedCheckout(
          request.params.productId,
          link.checkoutId,
          link.link.checkoutToken,
        );
        return checkoutPage(checkout, link.link);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );

  app.post<{ Params: { productId: string }; Body: Record<string, unknown> }>(
    '/buy/:productId',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const body = request.body && typeof request.body === 'object' ? request.body : {};
      const link = readLink(request, body);
      if (!link) return reply.code(statusForCode(errorCodes.badRequest)).send(errorPage(invalidLink));
      let paid: Awaited<ReturnType<SandboxPaymentService['payHostedCheckout']>>;
      try {
        paid = await payments.payHostedCheckout(
          request.params.productId,
          link.checkoutId,
          link.link.checkoutToken,
          {
            number: text(body.cardNumber),
            expiry: text(body.expiry),
            cvc: text(body.cvc),
          },
        );
      } catch (error) {
        return refuse(reply, error);
      }
      const { checkout, result } = paid;
      if (result.ok) return reply.redirect(withPaymentResult(link.link.redirectUrl, result.paymentId), 303);
      if (result.reason === 'delivery')
        return reply.code(statusForCode(errorCodes.badGateway)).send(errorPage(result.message));
      return reply
        .code(statusForCode(errorCodes.paymentDeclined))
        .send(checkoutPage(checkout, link.link, result.message));
    },
  );
}
