import {
  type CreateWebhookRequest,
  createdWebhookSchema,
  listWebhookDeliveriesResponseSchema,
  listWebhooksResponseSchema,
  rotatedWebhookSecretSchema,
  webhookDeliverySchema,
} from '@altwise/contracts/webhooks';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const webhooksQueryKey = ['webhooks'] as const;

/** GET /webhooks: the endpoints, oldest first (never their secrets). */
export const webhooksQuery = queryOptions({
  queryKey: webhooksQueryKey,
  queryFn: () => api.get('/webhooks', { schema: listWebhooksResponseSchema }),
});

export function useWebhooks() {
  return useQuery(webhooksQuery);
}

/** GET /webhooks/{id}/deliveries: the most recent deliveries, newest first. */
export function useWebhookDeliveries(id: string) {
  return useQuery({
    queryKey: [...webhooksQueryKey, id, 'deliveries'],
    queryFn: () =>
      api.get(`/webhooks/${encodeURIComponent(id)}/deliveries`, {
        schema: listWebhookDeliveriesResponseSchema,
      }),
  });
}

/** POST /webhooks: the answer carries the signing secret, this one time. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookRequest) => api.post('/webhooks', body, { schema: createdWebhookSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

/** DELETE /webhooks/{id}: the endpoint and its deliveries go. */
export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/webhooks/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: a failed delivery is sent again. */
export function useRedeliverWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api.post(
        `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
        undefined,
        { schema: webhookDeliverySchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...webhooksQueryKey, id, 'deliveries'] }),
  });
}

/**
 * POST /webhooks/{id}/rotate-secret: a new signing secret, in this answer only; the old one keeps
 * signing too for WEBHOOK_SECRET_OVERLAP_HOURS.
 */
export function useRotateWebhookSecret() {
  return useMutation({
    mutationFn: (id: string) =>
      api.post(`/webhooks/${encodeURIComponent(id)}/rotate-secret`, undefined, {
        schema: rotatedWebhookSecretSchema,
      }),
  });
}
