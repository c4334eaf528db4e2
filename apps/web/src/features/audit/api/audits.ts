import {
  type Audit,
  type AuditImagesResponse,
  type AuditReviewAction,
  auditImagesResponseSchema,
  auditSchema,
  fixAuditResponseSchema,
  listAuditsResponseSchema,
  type ReviewAuditRequest,
  reviewAuditResponseSchema,
  type StartAuditRequest,
  startAuditResponseSchema,
} from '@altwise/contracts/audit';
import type { AuditProblemCode, AuditVerdict } from '@altwise/contracts/audit-problems';
import { batchProgressSchema } from '@altwise/contracts/generation';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';
import { saveBlob } from '../../../lib/save-file.ts';

export const auditsQueryKey = ['audits'] as const;
export const auditQueryKey = (id: string) => ['audits', id] as const;
export const auditImagesQueryKey = (id: string) => ['audits', id, 'images'] as const;

export function isAuditFinished(audit: Pick<Audit, 'status'>): boolean {
  return audit.status === 'completed' || audit.status === 'failed';
}

/** GET /audits: the user's audits, newest first. */
export function useAudits() {
  return useQuery({
    queryKey: auditsQueryKey,
    queryFn: ({ signal }) => api.get('/audits', { schema: listAuditsResponseSchema, signal }),
    // The list shows live progress of running audits.
    refetchInterval: (query) => (query.state.data?.some((audit) => !isAuditFinished(audit)) ? 2000 : false),
  });
}

/** POST /audits → 202 {id}. */
export function useStartAudit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartAuditRequest) => api.post('/audits', body, { schema: startAuditResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditsQueryKey }),
  });
}

export function getAudit(id: string, signal?: AbortSignal) {
  return api.get(`/audits/${encodeURIComponent(id)}`, { schema: auditSchema, signal });
}

export type AuditImagesFilter = {
  page: number;
  pageSize: number;
  verdict?: AuditVerdict | undefined;
  problem?: AuditProblemCode | undefined;
  review?: string | undefined;
};

export function getAuditImages(
  id: string,
  filter: AuditImagesFilter,
  signal?: AbortSignal,
): Promise<AuditImagesResponse> {
  return api.get(`/audits/${encodeURIComponent(id)}/images`, {
    query: filter,
    schema: auditImagesResponseSchema,
    signal,
  });
}

/** GET /audits/{id}/images with filters and paging; the previous page stays shown while the next loads. */
export function useAuditImages(id: string, filter: AuditImagesFilter, options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: [...auditImagesQueryKey(id), filter],
    queryFn: ({ signal }) => getAuditImages(id, filter, signal),
    placeholderData: keepPreviousData,
    // While the audit runs or a fix writes suggestions (also one started before a reload).
    refetchInterval: (query) =>
      options.poll || query.state.data?.items.some((image) => image.fixStatus === 'generating')
        ? 2000
        : false,
  });
}

/** Every image of an audit matching `filter`, read in pages of 500 (for the printable report). */
export async function getAllAuditImages(
  id: string,
  filter: Omit<AuditImagesFilter, 'page' | 'pageSize'>,
  signal?: AbortSignal,
) {
  const pageSize = 500;
  const first = await getAuditImages(id, { ...filter, page: 1, pageSize }, signal);
  const items = [...first.items];
  for (let page = 2; items.length < first.total; page += 1) {
    const next = await getAuditImages(id, { ...filter, page, pageSize }, signal);
    if (next.items.length === 0) break;
    items.push(...next.items);
  }
  return items;
}

/**
 * POST /audits/{id}/fix {imageIds?, limit?}: suggestions for the failing images (1 credit each), as a
 * batch. Called with ids (the selection), a number (at most that many failing images) or nothing (all).
 */
export function useFixAudit(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageIds: string[] | number | undefined) =>
      api.post(
        `/audits/${encodeURIComponent(id)}/fix`,
        typeof imageIds === 'number' ? { limit: imageIds } : imageIds ? { imageIds } : {},
        {
          schema: fixAuditResponseSchema,
        },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}

/** GET /images/batches/{id}: how far the fix batch is. */
export function useFixBatch(batchId: string | null) {
  return useQuery({
    queryKey: ['audits', 'fix-batch', batchId],
    enabled: batchId !== null,
    queryFn: ({ signal }) =>
      api.get(`/images/batches/${encodeURIComponent(batchId ?? '')}`, {
        schema: batchProgressSchema,
        signal,
      }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'completed' || status === 'failed' ? false : 1000;
    },
  });
}

export type ReviewAction = AuditReviewAction;

/** POST /audits/{id}/review {imageIds, action, altText?}. */
export function useReviewAudit(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewAuditRequest) =>
      api.post(`/audits/${encodeURIComponent(id)}/review`, body, { schema: reviewAuditResponseSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditQueryKey(id) }),
  });
}

/** Downloads GET /audits/{id}/report.csv or .xlsx (the token is needed, so not a plain link). */
/** GET /audits/{id}/images-with-alt.zip: the audit's images with their approved alt text in each file (ADR 064). */
export async function downloadImagesWithAlt(id: string): Promise<void> {
  const blob = await api.get<Blob>(`/audits/${encodeURIComponent(id)}/images-with-alt.zip`, {
    responseType: 'blob',
    headers: { Accept: '*/*' },
  });
  saveBlob(blob, `altwise-audit-${id.slice(0, 8)}-images-with-alt-text.zip`);
}

export async function downloadReport(id: string, format: 'csv' | 'xlsx'): Promise<void> {
  const blob = await api.get<Blob>(`/audits/${encodeURIComponent(id)}/report.${format}`, {
    responseType: 'blob',
    headers: { Accept: '*/*' },
  });
  saveBlob(blob, `altwise-audit-${id.slice(0, 8)}.${format}`);
}
