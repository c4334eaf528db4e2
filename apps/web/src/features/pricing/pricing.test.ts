import { findPlan, plans } from '@altwise/contracts/plans';
import { describe, expect, it } from 'vitest';
import {
  checkoutHref,
  formatUsd,
  packQuantity,
  packTotal,
  periodSuffix,
  planAmount,
  planCreditText,
  planPrice,
} from './pricing.ts';

const growth = findPlan('growth');
if (!growth) throw new Error('growth plan missing');

describe('plan prices', () => {
  it('shows the monthly or yearly price, credits and period of the product spec §9', () => {
    expect(planPrice(growth, 'monthly')).toBe(19);
    expect(planPrice(growth, 'yearly')).toBe(189);
    expect(planAmount(growth, 'yearly')).toBe(189);
    expect(planCreditText(growth, 'monthly')).toBe('500 Credits/month');
    expect(planCreditText(growth, 'yearly')).toBe('6,000 Credits/year');
    expect(periodSuffix('monthly')).toBe('/month');
    expect(periodSuffix('yearly')).toBe('/year');
    expect(plans.map((plan) => formatUsd(planPrice(plan, 'yearly')))).toEqual([
      '$49',
      '$189',
      '$489',
      '$1,179',
      '$2,199',
    ]);
  });
});

describe('credit pack quantity', () => {
  it.each([
    ['', 1],
    ['1', 1],
    ['4', 4],
    ['0', 1],
    ['-3', 1],
    ['2.9', 2],
    ['abc', 1],
  ])('reads %j as %i', (raw, expected) => expect(packQuantity(raw)).toBe(expected));

  it('totals $3 and 50 credits per pack', () => {
    expect(packTotal(1)).toEqual({ amount: 3, credits: 50 });
    expect(packTotal(4)).toEqual({ amount: 12, credits: 200 });
  });
});

describe('checkout links', () => {
  it('are relative, with the amount in the query', () => {
    expect(checkoutHref('growth', 19)).toBe('/checkout/growth?amount=19');
    expect(checkoutHref('credit-pack', 12, { quantity: '4' })).toBe(
      '/checkout/credit-pack?amount=12&quantity=4',
    );
  });
});
