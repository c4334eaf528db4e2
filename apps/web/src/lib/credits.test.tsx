import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../test/mock-api.ts';
import { storeSession } from '../test/render-app.tsx';
import { useDeductCredits, useRefundCredits, useRemainingCredits } from './credits.ts';
import { createQueryClient } from './query-client.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

let client = createQueryClient();
function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('credits', () => {
  it('refetches the remaining credits after a spend and after a refund, even a failed one', async () => {
    client = createQueryClient();
    let balance = 25;
    const calls = mockApi({
      'GET /credits/remaining': () => json({ success: true, imageCredits: balance }),
      'POST /credits/deduct': () => {
        balance -= 10;
        return json({ success: true, remainingCredits: balance, reservationId: 'r1', message: 'ok' });
      },
      'POST /credits/refund': () => json({ message: 'Reservation not found', code: 'NOT_FOUND' }, 404),
    });
    storeSession('jwt');
    const { result } = renderHook(
      () => ({ remaining: useRemainingCredits(), deduct: useDeductCredits(), refund: useRefundCredits() }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.remaining.data?.imageCredits).toBe(25));

    const spent = await result.current.deduct.mutateAsync({ usedCredits: 10 });
    expect(spent.reservationId).toBe('r1');
    await waitFor(() => expect(result.current.remaining.data?.imageCredits).toBe(15));

    await expect(
      result.current.refund.mutateAsync({ refundCredits: 10, reservationId: 'nope' }),
    ).rejects.toThrow('Reservation not found');
    await waitFor(() => expect(calls.filter((c) => c.path === '/credits/remaining')).toHaveLength(3));
    expect(calls.find((c) => c.path === '/credits/deduct')?.body).toEqual({ usedCredits: 10 });
  });
});
