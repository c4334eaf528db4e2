import {
  type ConnectWordPressRequest,
  connectWordPressResponseSchema,
  type Integration,
  integrationSchema,
  listChangesResponseSchema,
  listIntegrationsResponseSchema,
  publishPreviewResponseSchema,
  startIntegrationJobResponseSchema,
} from '@altwise/contracts/integrations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const integrationsQueryKey = ['integrations'] as const;
export const integrationQueryKey = (id: string) => ['integrations', id] as const;
export const changesQueryKey = (id: string) => ['integrations', id, 'changes'] as const;

const path = (id: string) => `/integrations/${encodeURIComponent(id)}`;

export function isIntegrationBusy(integration: Pick<Integration, 'status'>): boolean {
  return integration.status === 'importing' || integration.status === 'publishing';
}

/** GET /integrations: the user's connected sites. */
export function useIntegrations() {
  return useQuery({
    queryKey: integrationsQueryKey,
    queryFn: ({ signal }) => api.get('/integrations', { schema: listIntegrationsResponseSchema, signal }),
  });
}

/** GET /integrations/{id}: polled while an import or publish runs. */
export function useIntegration(id: string) {
  return useQuery({
    queryKey: integrationQueryKey(id),
    queryFn: ({ signal }) => api.get(path(id), { schema: integrationSchema, signal }),
    refetchInterval: (query) => (query.state.data && isIntegrationBusy(query.state.data) ? 1000 : false),
  });
}

/** GET /integrations/{id}/changes. */
export function useChanges(id: string, enabled: boolean) {
  return useQuery({
    queryKey: changesQueryKey(id),
    queryFn: ({ signal }) => api.get(`${path(id)}/changes`, { schema: listChangesResponseSchema, signal }),
    enabled,
  });
}

/** POST /integrations/wordpress → 201. */
export function useConnectWordPress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConnectWordPressRequest) =>
      api.post('/integrations/wordpress', body, { schema: connectWordPressResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsQueryKey }),
  });
}

/** POST import, publish or undo → 202; the site's query then polls until it is done. */
export function useIntegrationAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'import' } | { kind: 'publish' } | { kind: 'undo'; changeIds: string[] }) =>
      api.post(
        `${path(id)}/${action.kind}`,
        action.kind === 'undo' ? { changeIds: action.changeIds } : action.kind === 'publish' ? {} : undefined,
        { schema: startIntegrationJobResponseSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationQueryKey(id) }),
  });
}

/** POST /integrations/{id}/publish/preview: what a publish would write, before it is confirmed. */
export function usePublishPreview(id: string) {
  return useMutation({
    mutationFn: () => api.post(`${path(id)}/publish/preview`, {}, { schema: publishPreviewResponseSchema }),
  });
}

/** DELETE /integrations/{id}. */
export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsQueryKey }),
  });
}
