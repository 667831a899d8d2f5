import { API, PublicConfigSchema, type PublicConfig } from '@adloom/contract';
import { keptForPage } from '../state/pageState.ts';
import { http } from './client.ts';

let pending: Promise<PublicConfig> | null = null;
keptForPage(() => {
  pending = null;
});

/**
 * GET /api/config: public settings (the register bot check, the configured media), asked once
 * per page load and shared by its readers; a failed ask is asked again next time. Callers
 * handle failures.
 */
export function fetchPublicConfig(): Promise<PublicConfig> {
  pending ??= http
    .get(API.config, { schema: PublicConfigSchema, errors: 'caller', isAnonymous: true })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}
