import { API, PublicConfigSchema, type PublicConfig } from '@adloom/contract';
import { http } from './client.ts';

/** GET /api/config: public settings (the register bot check). Callers handle failures. */
export function fetchPublicConfig(): Promise<PublicConfig> {
  return http.get(API.config, { schema: PublicConfigSchema, errors: 'caller', isAnonymous: true });
}
