import {
  type BillingProduct,
  findBillingProduct,
  hostedCheckoutQuerySchema,
} from '@altwise/contracts/billing';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxProvider } from './sandbox-provider.ts';

/**
 * The sandbox provider's hosted checkout, served by this app at /buy/{productId} (the path Dodo
 * uses): GET shows the order, the buyer (not editable) and a card form; POST "charges" a test card,
 * sends the signed webhooks to our own endpoint, and redirects to redirect_url. Plain server-rendered
 * HTML with no script, so it works wherever the API runs.
 */

type CheckoutFields = {
  quantity: number;
  firstName: string;
  lastName: string;
  email: string;
  redirectUrl: string;
  checkoutId: string;
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

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

function checkoutPage(product: BillingProduct, fields: CheckoutFields, error?: string): string {
  const quantity = product.kind === 'pack' ? fields.quantity : 1;
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
${hidden('quantity', quantity)}
${hidden('redirect_url', fields.redirectUrl)}
${hidden('metadata_checkout_id', fields.checkoutId)}
<h2>Customer</h2>
<div class="row">
<div><label for="firstName">First name</label><input id="firstName" name="firstName" value="${e(fields.firstName)}" readonly autocomplete="given-name"></div>
<div><label for="lastName">Last name</label><input id="lastName" name="lastName" value="${e(fields.lastName)}" readonly autocomplete="family-name"></div>
</div>
<label for="email">Email</label><input id="email" name="email" type="email" value="${e(fields.email)}" readonly autocomplete="email">
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

export async function sandboxCheckoutRoutes(
  app: FastifyInstance,
  options: { sandbox: SandboxProvider; publicUrl: string },
) {
  const { sandbox } = options;
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

  const readFields = (request: FastifyRequest, source: Record<string, unknown>) => {
    const parsed = hostedCheckoutQuerySchema.safeParse(source);
    const query = parsed.success ? parsed.data : { quantity: 1 };
    // Oversized or malformed parameters make the link unusable, like a foreign redirect.
    const redirectUrl = parsed.success
      ? safeRedirectUrl(parsed.data.redirect_url, allowedOrigins(request))
      : null;
    return {
      redirectUrl,
      fields: {
        quantity: query.quantity,
        firstName: parsed.data?.firstName ?? '',
        lastName: parsed.data?.lastName ?? '',
        email: parsed.data?.email ?? '',
        redirectUrl: redirectUrl ?? '',
        checkoutId: parsed.data?.metadata_checkout_id ?? '',
      } satisfies CheckoutFields,
    };
  };

  app.get<{ Params: { productId: string } }>(
    '/buy/:productId',
    { schema: { hide: true } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const product = findBillingProduct(request.params.productId);
      if (!product) return reply.code(404).send(errorPage('This product does not exist.'));
      const { redirectUrl, fields } = readFields(request, request.query as Record<string, unknown>);
      if (!redirectUrl)
        return reply
          .code(400)
          .send(
            errorPage(
              'This checkout link is not valid: its redirect address is not allowed or a parameter is malformed.',
            ),
          );
      return checkoutPage(product, fields);
    },
  );

  app.post<{ Params: { productId: string }; Body: Record<string, unknown> }>(
    '/buy/:productId',
    { schema: { hide: true } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const product = findBillingProduct(request.params.productId);
      if (!product) return reply.code(404).send(errorPage('This product does not exist.'));
      const body = request.body && typeof request.body === 'object' ? request.body : {};
      const { redirectUrl, fields } = readFields(request, body);
      if (!redirectUrl)
        return reply
          .code(400)
          .send(
            errorPage(
              'This checkout link is not valid: its redirect address is not allowed or a parameter is malformed.',
            ),
          );
      const result = await sandbox.charge({
        product,
        quantity: fields.quantity,
        checkoutId: fields.checkoutId || null,
        email: fields.email,
        name: `${fields.firstName} ${fields.lastName}`.trim(),
        card: { number: text(body.cardNumber), expiry: text(body.expiry), cvc: text(body.cvc) },
      });
      if (result.ok) return reply.redirect(withPaymentResult(redirectUrl, result.paymentId), 303);
      if (result.reason === 'delivery') return reply.code(502).send(errorPage(result.message));
      return reply.code(402).send(checkoutPage(product, fields, result.message));
    },
  );
}
