import { describe, expect, it } from 'vitest';
import { resolveCheckout } from './checkout-product.ts';

const q = (query: string) => new URLSearchParams(query);

describe('resolveCheckout', () => {
  it('reads the period of a plan from the amount the pricing page links with', () => {
    expect(resolveCheckout('growth', q('amount=19'))).toMatchObject({
      productId: 'growth-monthly',
      total: 19,
      credits: 500,
      quantity: 1,
    });
    expect(resolveCheckout('growth', q('amount=189'))).toMatchObject({
      productId: 'growth-yearly',
      total: 189,
      credits: 6000,
    });
    expect(resolveCheckout('pro', q(''))).toMatchObject({ productId: 'pro-monthly' });
  });

  it('takes an explicit period or a product id', () => {
    expect(resolveCheckout('starter', q('period=yearly'))).toMatchObject({ productId: 'starter-yearly' });
    expect(resolveCheckout('premium-yearly', q(''))).toMatchObject({
      productId: 'premium-yearly',
      total: 2199,
    });
  });

  it('totals the credit pack by quantity, at least 1', () => {
    expect(resolveCheckout('credit-pack', q('amount=9&quantity=3'))).toMatchObject({
      productId: 'credit-pack',
      quantity: 3,
      total: 9,
      credits: 150,
      period: null,
    });
    expect(resolveCheckout('credit-pack', q('quantity=0'))).toMatchObject({ quantity: 1 });
    expect(resolveCheckout('credit-pack', q(''))).toMatchObject({ quantity: 1, total: 3 });
  });

  it('knows nothing else', () => {
    expect(resolveCheckout('platinum', q('amount=5'))).toBeNull();
    expect(resolveCheckout('', q(''))).toBeNull();
    expect(resolveCheckout('free', q(''))).toBeNull();
  });
});
