import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/**
 * The dashboard only asks whether a list is empty, so it reads the ids and leaves the rest of each
 * audit or site to the features that show them (their full schemas live in the contracts).
 */
const idsSchema = z.array(z.object({ id: z.string() }));

/** GET /audits: whether the person has audited a site yet. */
export function useHasAudits() {
  return useQuery({
    queryKey: ['dashboard', 'audits'],
    queryFn: ({ signal }) => api.get('/audits', { schema: idsSchema, signal }),
    select: (audits) => audits.length > 0,
  });
}

/** GET /integrations: whether a WordPress site is connected. */
export function useHasIntegrations() {
  return useQuery({
    queryKey: ['dashboard', 'integrations'],
    queryFn: ({ signal }) => api.get('/integrations', { schema: idsSchema, signal }),
    select: (integrations) => integrations.length > 0,
  });
}
