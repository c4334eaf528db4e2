import { type Audit, auditSchema } from '@altwise/contracts/audit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { readEventStream } from '../../../lib/event-stream.ts';
import { auditImagesQueryKey, auditQueryKey, auditsQueryKey, getAudit, isAuditFinished } from './audits.ts';

/** How often the fallback polls GET /audits/{id} when the event stream is not available. */
export const AUDIT_POLL_MS = 1000;

/**
 * One audit, kept live while it runs: GET /audits/{id} first, then its event stream
 * (GET /audits/{id}/events) writes each progress event into the query; when the stream cannot be read
 * the query polls instead. When the audit ends, its images and the list are read again.
 */
export function useLiveAudit(id: string) {
  const queryClient = useQueryClient();
  const [polling, setPolling] = useState(false);
  const query = useQuery({
    queryKey: auditQueryKey(id),
    queryFn: ({ signal }) => getAudit(id, signal),
    refetchInterval: (q) =>
      polling && q.state.data && !isAuditFinished(q.state.data) ? AUDIT_POLL_MS : false,
  });
  const running = query.data ? !isAuditFinished(query.data) : false;

  useEffect(() => {
    if (!running) return;
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      try {
        await readEventStream(`/audits/${encodeURIComponent(id)}/events`, 'progress', signal, (data) => {
          const parsed = auditSchema.safeParse(data);
          if (!parsed.success) return false;
          queryClient.setQueryData<Audit>(auditQueryKey(id), parsed.data);
          return isAuditFinished(parsed.data);
        });
      } catch {
        // A proxy may not pass the stream, or it was cut: poll below.
      }
      if (signal.aborted) return;
      const current = queryClient.getQueryData<Audit>(auditQueryKey(id));
      if (!current || !isAuditFinished(current)) setPolling(true);
    })();
    return () => controller.abort();
  }, [id, running, queryClient]);

  // Seen running, now finished: the verdicts of the last pages and the list's row have changed.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running) wasRunning.current = true;
    else if (wasRunning.current && query.data) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: auditImagesQueryKey(id) });
      void queryClient.invalidateQueries({ queryKey: auditsQueryKey, exact: true });
    }
  }, [running, id, queryClient, query.data]);

  return query;
}
