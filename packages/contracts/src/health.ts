import { z } from 'zod';

export const componentStatusSchema = z.object({
  status: z.enum(['up', 'down']),
  /** Which adapter is in use, e.g. "pglite" or "postgres". */
  driver: z.string(),
  latencyMs: z.number().optional(),
  message: z.string().optional(),
});

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  role: z.enum(['all', 'api', 'worker']),
  database: componentStatusSchema,
  queue: componentStatusSchema,
  storage: componentStatusSchema,
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
