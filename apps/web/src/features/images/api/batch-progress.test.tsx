import type { BatchProgress } from '@altwise/contracts/generation';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client.ts';
import { json, mockApi } from '../../../test/mock-api.ts';
import { storeSession } from '../../../test/render-app.tsx';
import { useBatchProgress } from './batch-progress.ts';

const batchId = '6f9f1c2e-8a4b-4c0e-9a57-1f2d3c4b5a69';
const progress = (over: Partial<BatchProgress>): BatchProgress => ({
  id: batchId,
  status: 'processing',
  total: 3,
  completed: 0,
  failed: 0,
  creditsReserved: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  failures: [],
  ...over,
});

function eventStream(events: BatchProgress[]) {
  const text = events.map((event) => `event: progress\ndata: ${JSON.stringify(event)}\n\n`).join('');
  // Split mid-event to check the parser joins chunks.
  const chunks = [text.slice(0, 37), text.slice(37)];
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
  );
}

function setup(id: string | null) {
  const client = createQueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { ...renderHook(() => useBatchProgress(id), { wrapper }), invalidate };
}

beforeEach(() => storeSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('useBatchProgress', () => {
  it('follows the event stream with the Bearer token until the batch finishes, then refetches library and credits', async () => {
    const calls = mockApi({
      [`GET /images/batches/${batchId}/events`]: () =>
        eventStream([progress({ completed: 1 }), progress({ status: 'completed', completed: 2, failed: 1 })]),
    });
    const { result, invalidate } = setup(batchId);
    await waitFor(() => expect(result.current.progress?.status).toBe('completed'));
    expect(result.current.progress).toMatchObject({ completed: 2, failed: 1 });
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer stored-token');
    await waitFor(() => {
      const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey?.[0]);
      expect(keys).toEqual(expect.arrayContaining(['library-images', 'credits']));
    });
    // No polling once the stream said it is finished.
    expect(calls.filter((call) => call.path === `/images/batches/${batchId}`)).toHaveLength(0);
  });

  it('polls GET /images/batches/{id} every second when the stream cannot be opened', async () => {
    let reads = 0;
    mockApi({
      [`GET /images/batches/${batchId}/events`]: () => json({ message: 'Gateway', code: 'INTERNAL' }, 502),
      [`GET /images/batches/${batchId}`]: () => {
        reads += 1;
        return json(reads < 2 ? progress({ completed: 1 }) : progress({ status: 'failed', failed: 3 }));
      },
    });
    const { result } = setup(batchId);
    await waitFor(() => expect(result.current.progress?.completed).toBe(1));
    await waitFor(() => expect(result.current.progress?.status).toBe('failed'), { timeout: 3000 });
    expect(reads).toBe(2);
  });

  it('reports an error and stops when the batch is not found', async () => {
    mockApi({
      [`GET /images/batches/${batchId}`]: () => json({ message: 'No such batch', code: 'NOT_FOUND' }, 404),
    });
    const { result } = setup(batchId);
    await waitFor(() => expect(result.current.error?.message).toBe('No such batch'));
    expect(result.current.progress).toBeUndefined();
  });

  it('follows nothing without a batch id', () => {
    const calls = mockApi({});
    const { result } = setup(null);
    expect(result.current).toEqual({ progress: undefined, error: null });
    expect(calls).toHaveLength(0);
  });
});
