import { type BillingPeriod, creditPack, type Plan } from '@altwise/contracts/plans';
import { routes } from '@altwise/contracts/routes';

/** The pricing page's arithmetic, kept apart from the markup so that it can be tested on its own. */

export function planPrice(plan: Plan, period: BillingPeriod): number {
  return period === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice;
}

export function planAmount(plan: Plan, period: BillingPeriod): number {
  return period === 'monthly' ? plan.monthlyAmount : plan.yearlyAmount;
}

export function planCreditText(plan: Plan, period: BillingPeriod): string {
  return period === 'monthly' ? plan.monthlyCreditText : plan.yearlyCreditText;
}

export function periodSuffix(period: BillingPeriod): '/month' | '/year' {
  return period === 'monthly' ? '/month' : '/year';
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** '$1,179': whole dollars, as every price of the product spec §9 is. */
export function formatUsd(amount: number): string {
  return usd.format(amount);
}

/**
 * The credit pack quantity typed in the number input: empty (or anything not a number) means 1 (the product spec
 * §2), fractions are cut, and it is never below the minimum of 1.
 */
export function packQuantity(raw: string): number {
  const value = Number.parseInt(raw, 10);
  if (!Number.isFinite(value)) return creditPack.minQuantity;
  return Math.max(creditPack.minQuantity, value);
}

export function packTotal(quantity: number): { amount: number; credits: number } {
  return { amount: quantity * creditPack.amount, credits: quantity * creditPack.credits };
}

/** The relative checkout link of a plan or the credit pack: /checkout/{id}?amount=… (the product spec §2). */
export function checkoutHref(productId: string, amount: number, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ amount: String(amount), ...extra });
  return `${routes.checkout(productId)}?${query}`;
}
