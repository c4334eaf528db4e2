import { z } from 'zod';

/** Most active (not revoked) API keys one account can have. */
export const MAX_API_KEYS = 20;
export const MAX_API_KEY_NAME_LENGTH = 100;
/** Every API key starts with this; the browser's session tokens never do. */
export const API_KEY_PREFIX = 'ak_';

/** POST /api-keys: a name the person chooses, to tell their keys apart. */
export const createApiKeyRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the key a name.')
    .max(MAX_API_KEY_NAME_LENGTH, `The name can be at most ${MAX_API_KEY_NAME_LENGTH} characters.`),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** An API key as lists show it: never the key itself, only its first characters. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `ak_` and the first 8 characters of the key. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeySchema>;

/** 201 of POST /api-keys: the full key, shown in this answer only. */
export const createdApiKeySchema = apiKeySchema.omit({ lastUsedAt: true }).extend({
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyListSchema = z.array(apiKeySchema);

export const apiKeyIdParamsSchema = z.object({ id: z.uuid('Not a key id.') });
