import { z } from 'zod';

export const ApiKey = z
  .object({ id: z.number().int(), name: z.string(), prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable(), revoked_at: z.string().nullable() })
  .meta({ id: 'ApiKey' });
export const ApiKeyCreate = z.object({ name: z.string().trim().min(1).max(100) });
export const ApiKeyCreated = ApiKey.extend({ key: z.string() });
