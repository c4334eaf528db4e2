import { describe, expect, it } from 'vitest';
import { formatDate, transactionTitle } from './billing-display.ts';

describe('billing display', () => {
  it("formats dates as 'MMM dd, yyyy' and says 'NA' without one", () => {
    expect(formatDate('2027-03-05T12:00:00')).toBe('Mar 05, 2027');
    expect(formatDate('2026-12-31T08:00:00')).toBe('Dec 31, 2026');
    expect(formatDate(null)).toBe('NA');
    expect(formatDate('')).toBe('NA');
    expect(formatDate('not a date')).toBe('NA');
  });

  it('removes parenthesised text from transaction titles', () => {
    expect(transactionTitle('Growth Plan (monthly subscription)')).toBe('Growth Plan');
    expect(transactionTitle('Credit pack (x3) purchase')).toBe('Credit pack purchase');
    expect(transactionTitle('Starter')).toBe('Starter');
  });
});
