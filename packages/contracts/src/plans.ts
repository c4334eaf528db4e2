/** The plan catalogue of the product spec §9: one source for the pricing page and the server. */
export const billingPeriods = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof billingPeriods)[number];

export type Plan = {
  id: 'starter' | 'growth' | 'pro' | 'advanced' | 'premium';
  name: string;
  /** Display prices in US dollars. */
  monthlyPrice: number;
  yearlyPrice: number;
  /** Amounts charged, in US dollars (same as the display prices). */
  monthlyAmount: number;
  yearlyAmount: number;
  monthlyCredits: number;
  yearlyCredits: number;
  monthlyCreditText: string;
  yearlyCreditText: string;
  mostPopular: boolean;
};

const plan = (
  id: Plan['id'],
  name: string,
  monthlyPrice: number,
  yearlyPrice: number,
  monthlyCredits: number,
  yearlyCredits: number,
  mostPopular = false,
): Plan => ({
  id,
  name,
  monthlyPrice,
  yearlyPrice,
  monthlyAmount: monthlyPrice,
  yearlyAmount: yearlyPrice,
  monthlyCredits,
  yearlyCredits,
  monthlyCreditText: `${monthlyCredits.toLocaleString('en-US')} Credits/month`,
  yearlyCreditText: `${yearlyCredits.toLocaleString('en-US')} Credits/year`,
  mostPopular,
});

export const plans: readonly Plan[] = [
  plan('starter', 'Starter', 5, 49, 100, 1200),
  plan('growth', 'Growth', 19, 189, 500, 6000, true),
  plan('pro', 'Pro', 49, 489, 2000, 24000),
  plan('advanced', 'Advanced', 119, 1179, 5000, 60000),
  plan('premium', 'Premium', 229, 2199, 10000, 120000),
];

export const creditPack = {
  id: 'credit-pack',
  price: 3,
  amount: 3,
  credits: 50,
  feature: '50 Credits',
  minQuantity: 1,
} as const;

export const freePlan = {
  id: 'free',
  name: 'Free',
  price: 0,
  credits: 25,
  features: ['25 credits', '1 user', 'Basic support'],
} as const;

export function findPlan(id: string): Plan | undefined {
  return plans.find((p) => p.id === id);
}
