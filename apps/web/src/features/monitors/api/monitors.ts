import {
  type CreateMonitorRequest,
  listMonitorsResponseSchema,
  type Monitor,
  monitorSchema,
} from '@altwise/contracts/monitors';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const monitorsQueryKey = ['monitors'] as const;

/** Whether a monitor's newest run is still waiting or auditing. */
export function isRunUnderway(monitor: Pick<Monitor, 'lastRun'>): boolean {
  return monitor.lastRun?.status === 'queued' || monitor.lastRun?.status === 'running';
}

/** GET /monitors: the user's watched sites with their score history and newest run. */
export function useMonitors() {
  return useQuery({
    queryKey: monitorsQueryKey,
    queryFn: ({ signal }) => api.get('/monitors', { schema: listMonitorsResponseSchema, signal }),
    // A run under way shows its result when it ends.
    refetchInterval: (query) => (query.state.data?.some(isRunUnderway) ? 2000 : false),
  });
}

/** POST /monitors → 201 with the monitor and its first run (an audit started at once). */
export function useCreateMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMonitorRequest) => api.post('/monitors', body, { schema: monitorSchema }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: monitorsQueryKey });
      // The first run is an audit: the audit list has it too.
      queryClient.invalidateQueries({ queryKey: ['audits'] });
    },
  });
}

/** POST /monitors/{id}/run → 202 with the monitor and its new run (an audit started at once). */
export function useRunMonitorNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post(`/monitors/${encodeURIComponent(id)}/run`, undefined, { schema: monitorSchema }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: monitorsQueryKey });
      queryClient.invalidateQueries({ queryKey: ['audits'] });
    },
  });
}

/** DELETE /monitors/{id}: no more runs; the audits already made stay. */
export function useDeleteMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/monitors/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorsQueryKey }),
  });
}
