import {
  type BillingProduct,
  findBillingProduct,
  MAX_PACK_QUANTITY,
  type ProductId,
  planProductId,
} from '@altwise/contracts/billing';
import { type BillingPeriod, billingPeriods, creditPack, findPlan } from '@altwise/contracts/plans';

export type CheckoutSelection = {
  productId: ProductId;
  product: BillingProduct;
  /** Packs bought (1 for a plan). */
  quantity: number;
  /** Total charged now, in US dollars. */
  total: number;
  /** Credits granted by this payment. */
  credits: number;
  period: BillingPeriod | null;
};

function isPeriod(value: string | null): value is BillingPeriod {
  return (billingPeriods as readonly (string | null)[]).includes(value);
}

/**
 * What /checkout/{plan}?amount=… is for. The pricing page links a plan as `/checkout/growth?amount=19`
 * (the amount tells the period: the yearly amount means yearly) and the pack as
 * `/checkout/credit-pack?amount=12&quantity=4`; `?period=` or a product id such as `growth-yearly` also
 * work. Anything else is not a product: null, and nothing is requested (the product spec §5).
 */
export function resolveCheckout(planParam: string, search: URLSearchParams): CheckoutSelection | null {
  if (planParam === creditPack.id) {
    const parsed = Number.parseInt(search.get('quantity') ?? '', 10);
    const quantity = Number.isFinite(parsed)
      ? Math.min(MAX_PACK_QUANTITY, Math.max(creditPack.minQuantity, parsed))
      : creditPack.minQuantity;
    const product = findBillingProduct(creditPack.id);
    if (!product) return null;
    return {
      productId: creditPack.id,
      product,
      quantity,
      total: quantity * product.amount,
      credits: quantity * product.credits,
      period: null,
    };
  }

  let productId: string = planParam;
  const plan = findPlan(planParam);
  if (plan) {
    const requested = search.get('period');
    const amount = Number(search.get('amount'));
    const period: BillingPeriod = isPeriod(requested)
      ? requested
      : amount === plan.yearlyAmount && plan.yearlyAmount !== plan.monthlyAmount
        ? 'yearly'
        : 'monthly';
    productId = planProductId(plan.id, period);
  }
  const product = findBillingProduct(productId);
  if (product?.kind !== 'plan') return null;
  return {
    productId: product.id,
    product,
    quantity: 1,
    total: product.amount,
    credits: product.credits,
    period: product.period,
  };
}
