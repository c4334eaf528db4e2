import { describe, expect, it } from 'vitest';
import {
  billingCycleLabel,
  billingProducts,
  canCancelRenewal,
  createCheckoutSessionRequestSchema,
  findBillingProduct,
  paymentStatusColour,
  paymentStatusLabel,
  showsAddCredits,
} from './billing.ts';

describe('payment status display (the product spec §4)', () => {
  it.each([
    ['active', 'Payment Successful', 'indigo'],
    ['succeeded', 'Payment Successful', 'indigo'],
    ['on_hold', 'Payment Failed', 'red'],
    ['failed', 'Payment Failed', 'red'],
    ['cancelled', 'Subscription Cancelled', 'amber'],
    ['expired', 'Plan Expired', 'amber'],
    ['Payment Processing (Credits Added)', 'Payment Processing (Credits Added)', 'amber'],
    ['Not Subscribed', 'Not Subscribed', 'indigo'],
    ['something_new', 'something_new', 'indigo'],
  ])('%s reads %s in %s', (status, label, colour) => {
    expect(paymentStatusLabel(status)).toBe(label);
    expect(paymentStatusColour(status)).toBe(colour);
  });

  it('offers Cancel Renewal only after a successful payment and hides Add Credits while processing', () => {
    expect(canCancelRenewal('active')).toBe(true);
    expect(canCancelRenewal('cancelled')).toBe(false);
    expect(canCancelRenewal('Payment Processing (Credits Added)')).toBe(false);
    expect(showsAddCredits('Payment Processing (Credits Added)')).toBe(false);
    expect(showsAddCredits('active')).toBe(true);
  });

  it('reads the billing cycle from the plan name', () => {
    expect(billingCycleLabel('Growth Monthly')).toBe('Monthly');
    expect(billingCycleLabel('pro yearly')).toBe('Yearly');
    expect(billingCycleLabel('Trial')).toBe('NA');
  });
});

describe('billing products', () => {
  it('has one product per plan and period plus the pack', () => {
    expect(billingProducts).toHaveLength(11);
    expect(findBillingProduct('growth-monthly')).toMatchObject({ kind: 'plan', credits: 500, amount: 19 });
    expect(findBillingProduct('premium-yearly')).toMatchObject({ credits: 120000, amount: 2199 });
    expect(findBillingProduct('credit-pack')).toMatchObject({ kind: 'pack', credits: 50, amount: 3 });
    expect(findBillingProduct('nope')).toBeUndefined();
  });

  it('checks a checkout request', () => {
    expect(
      createCheckoutSessionRequestSchema.safeParse({ productId: 'credit-pack', quantity: 3 }).success,
    ).toBe(true);
    expect(
      createCheckoutSessionRequestSchema.safeParse({ productId: 'credit-pack', quantity: 0 }).success,
    ).toBe(false);
    expect(createCheckoutSessionRequestSchema.safeParse({ productId: 'gold' }).success).toBe(false);
  });
});
