import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';

describe('payment configuration', () => {
  it('defaults to the sandbox with a generated webhook secret', () => {
    expect(loadConfig({}).payments).toEqual({ provider: 'sandbox', webhookSecret: undefined });
  });

  it('names every missing Dodo variable at once', () => {
    try {
      loadConfig({ PAYMENT_PROVIDER: 'dodo', DODO_PRODUCT_GROWTH_MONTHLY: 'pdt_1' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toContain('DODO_API_KEY is required when PAYMENT_PROVIDER=dodo');
      expect(problems).toContain('DODO_PRODUCT_CREDIT_PACK is required when PAYMENT_PROVIDER=dodo');
      expect(problems).not.toContain('DODO_PRODUCT_GROWTH_MONTHLY is required when PAYMENT_PROVIDER=dodo');
    }
  });

  it('reads the Dodo key, secret, environment and product ids', () => {
    const env: Record<string, string> = {
      PAYMENT_PROVIDER: 'dodo',
      DODO_API_KEY: 'key',
      DODO_WEBHOOK_SECRET: 'whsec_abc',
      DODO_ENVIRONMENT: 'live_mode',
    };
    for (const id of ['STARTER', 'GROWTH', 'PRO', 'ADVANCED', 'PREMIUM'])
      for (const period of ['MONTHLY', 'YEARLY']) env[`DODO_PRODUCT_${id}_${period}`] = `pdt_${id}_${period}`;
    env.DODO_PRODUCT_CREDIT_PACK = 'pdt_pack';
    const payments = loadConfig(env).payments;
    expect(payments).toMatchObject({ provider: 'dodo', apiKey: 'key', environment: 'live_mode' });
    if (payments.provider !== 'dodo') throw new Error('not dodo');
    expect(payments.productIds['growth-monthly']).toBe('pdt_GROWTH_MONTHLY');
    expect(payments.productIds['credit-pack']).toBe('pdt_pack');
  });

  it('refuses the sandbox in production on a public address unless ALLOW_SANDBOX_PAYMENTS=true', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(48) };
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig({ ...production, ...env });
        return null;
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.problems.find((problem) => problem.startsWith('PAYMENT_PROVIDER=sandbox')) ?? null;
      }
    };
    const message = refusal({ PUBLIC_URL: 'https://altwise.example' });
    expect(message).toContain('PUBLIC_URL is not localhost');
    expect(message).toContain('anyone could buy credits without paying');
    expect(message).toContain('ALLOW_SANDBOX_PAYMENTS=true');
    // The default provider is the sandbox, so an unset PAYMENT_PROVIDER is refused as well.
    expect(refusal({ PUBLIC_URL: 'http://203.0.113.7:3000', PAYMENT_PROVIDER: 'sandbox' })).toBe(message);
    // `npm start` on this machine, and a deliberate public demo, keep working.
    const local: Record<string, string>[] = [
      {},
      { PUBLIC_URL: 'http://localhost:3000' },
      { PUBLIC_URL: 'http://127.0.0.1:8080' },
      { PUBLIC_URL: 'http://[::1]:3000' },
      { PUBLIC_URL: 'http://app.localhost' },
      { PUBLIC_URL: 'https://demo.altwise.example', ALLOW_SANDBOX_PAYMENTS: 'true' },
    ];
    for (const env of local) expect(refusal(env)).toBeNull();
    // Outside production the sandbox runs anywhere (tests, development).
    expect(loadConfig({ PUBLIC_URL: 'https://altwise.example' }).payments.provider).toBe('sandbox');
    expect(() => loadConfig({ ALLOW_SANDBOX_PAYMENTS: 'maybe' })).toThrow(
      'ALLOW_SANDBOX_PAYMENTS must be true or false',
    );
  });

  it('refuses an unknown provider and a short sandbox secret', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(
      'PAYMENT_PROVIDER must be sandbox or dodo',
    );
    expect(() => loadConfig({ PAYMENT_WEBHOOK_SECRET: 'short' })).toThrow('at least 24 characters');
  });

  it('runs the card routes on the sandbox without STRIPE_SECRET_KEY, and on Stripe with it', () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(
      loadConfig({
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      }).stripe,
    ).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      apiBase: { protocol: 'http', host: '127.0.0.1', port: 12111 },
    });
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).stripe?.apiBase,
    ).toBeNull();
  });

  it('names STRIPE_WEBHOOK_SECRET when STRIPE_SECRET_KEY is set without it', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      'STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set',
    );
    expect(() => loadConfig({ STRIPE_API_BASE: 'localhost:12111' })).toThrow(
      'STRIPE_API_BASE must be an absolute http(s) URL',
    );
  });
});
