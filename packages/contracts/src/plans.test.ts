import { describe, expect, it } from 'vitest';
import { creditPack, findPlan, freePlan, plans } from './plans.ts';

describe('plan catalogue (the product spec §9)', () => {
  it('lists the five plans with their monthly and yearly prices and credits', () => {
    expect(
      plans.map((p) => [p.name, p.monthlyPrice, p.yearlyPrice, p.monthlyCredits, p.yearlyCredits]),
    ).toEqual([
      ['Starter', 5, 49, 100, 1200],
      ['Growth', 19, 189, 500, 6000],
      ['Pro', 49, 489, 2000, 24000],
      ['Advanced', 119, 1179, 5000, 60000],
      ['Premium', 229, 2199, 10000, 120000],
    ]);
  });

  it('marks only Growth as most popular', () => {
    expect(plans.filter((p) => p.mostPopular).map((p) => p.name)).toEqual(['Growth']);
  });

  it('writes the credit text users read on the pricing cards', () => {
    expect(findPlan('pro')?.monthlyCreditText).toBe('2,000 Credits/month');
    expect(findPlan('premium')?.yearlyCreditText).toBe('120,000 Credits/year');
    expect(findPlan('nope')).toBeUndefined();
  });

  it('sells the credit pack at $3 for 50 credits and gives 25 free credits', () => {
    expect(creditPack).toMatchObject({
      price: 3,
      amount: 3,
      credits: 50,
      feature: '50 Credits',
      minQuantity: 1,
    });
    expect(freePlan).toMatchObject({ price: 0, credits: 25 });
  });
});
