import { auditPagesResponseSchema, pageAnnouncementsResponseSchema } from '@altwise/contracts/audit';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const auditPagesQueryKey = (id: string) => ['audits', id, 'pages'] as const;
export const pageAnnouncementsQueryKey = (id: string, pageId: string) =>
  ['audits', id, 'pages', pageId, 'announcements'] as const;

/** GET /audits/{id}/pages: the pages the audit visits, with their image and hidden-image counts. */
export function getAuditPages(id: string, signal?: AbortSignal) {
  return api.get(`/audits/${encodeURIComponent(id)}/pages`, { schema: auditPagesResponseSchema, signal });
}

export function useAuditPages(id: string, options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: auditPagesQueryKey(id),
    queryFn: ({ signal }) => getAuditPages(id, signal),
    refetchInterval: options.poll ? 3000 : false,
  });
}

/** GET /audits/{id}/pages/{pageId}/announcements: a page's screen-reader preview. */
export function getPageAnnouncements(id: string, pageId: string, signal?: AbortSignal) {
  return api.get(`/audits/${encodeURIComponent(id)}/pages/${encodeURIComponent(pageId)}/announcements`, {
    schema: pageAnnouncementsResponseSchema,
    signal,
  });
}

/** Loaded only once `enabled` (the page's preview is opened). */
export function usePageAnnouncements(id: string, pageId: string, enabled: boolean) {
  return useQuery({
    queryKey: pageAnnouncementsQueryKey(id, pageId),
    queryFn: ({ signal }) => getPageAnnouncements(id, pageId, signal),
    enabled,
  });
}
