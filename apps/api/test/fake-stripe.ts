import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export type RecordedStripeRequest = {
  method: string;
  path: string;
  /** The form-encoded body, one level of `a[b]` nesting unfolded (metadata[user_id] → metadata.user_id). */
  body: Record<string, string | Record<string, string>>;
  headers: Record<string, string | string[] | undefined>;
};

export type FakePaymentIntent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
  last_payment_error: { message: string } | null;
  created: number;
  livemode: false;
};

export type FakeStripe = {
  /** STRIPE_API_BASE for the app under test. */
  apiBase: string;
  requests: RecordedStripeRequest[];
  intents: Map<string, FakePaymentIntent>;
  /** What Stripe.js' confirmCardPayment would leave behind: a paid or a declined intent. */
  settle(id: string, outcome: 'succeeded' | 'declined'): FakePaymentIntent;
  /** A payment_intent.* event for `intent`, with its Stripe-Signature header for `secret`. */
  signedEvent(
    type: string,
    intent: FakePaymentIntent,
    secret: string,
    eventId?: string,
  ): { body: string; headers: Record<string, string>; eventId: string };
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function unfold(form: URLSearchParams): RecordedStripeRequest['body'] {
  const body: RecordedStripeRequest['body'] = {};
  for (const [key, value] of form) {
    const nested = /^([^[]+)\[([^\]]+)\]$/.exec(key);
    if (!nested?.[1] || !nested[2]) {
      body[key] = value;
      continue;
    }
    const inner = body[nested[1]];
    body[nested[1]] = { ...(typeof inner === 'object' ? inner : {}), [nested[2]]: value };
  }
  return body;
}

/** The few Stripe endpoints the card routes call, played on 127.0.0.1; every request is recorded. */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedStripeRequest[] = [];
  const intents = new Map<string, FakePaymentIntent>();

  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = unfold(new URLSearchParams(raw));
      requests.push({ method: request.method ?? '', path: url.pathname, body, headers: request.headers });
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        response.end(JSON.stringify(json));
      };
      if (request.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const intentId = id('pi');
        const metadata = typeof body.metadata === 'object' ? body.metadata : {};
        const intent: FakePaymentIntent = {
          id: intentId,
          object: 'payment_intent',
          amount: Number(body.amount),
          amount_received: 0,
          currency: String(body.currency),
          status: 'requires_payment_method',
          client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
          metadata,
          receipt_email: typeof body.receipt_email === 'string' ? body.receipt_email : null,
          last_payment_error: null,
          created: Math.floor(Date.now() / 1000),
          livemode: false,
        };
        intents.set(intentId, intent);
        return send(200, intent);
      }
      const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && retrieve?.[1]) {
        const intent = intents.get(decodeURIComponent(retrieve[1]));
        if (intent) return send(200, intent);
        return send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such payment_intent: '${retrieve[1]}'`,
            param: 'intent',
          },
        });
      }
      send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiBase: `http://127.0.0.1:${port}`,
    requests,
    intents,
    settle(intentId, outcome) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`no intent ${intentId}`);
      if (outcome === 'succeeded')
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
      else
        Object.assign(intent, {
          status: 'requires_payment_method',
          last_payment_error: { message: 'Your card was declined.' },
        });
      return intent;
    },
    signedEvent(type, intent, secret, eventId = id('evt')) {
      const body = JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type,
        data: { object: intent },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
      return {
        body,
        eventId,
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
