import {
  API,
  GEO_LOOKUP_MAX,
  GeoLookupAnswerSchema,
  GeoSearchAnswerSchema,
  GeoStatusSchema,
  GeoTargetSchema,
  type GeoParamsInput,
  type GeoSearchAnswer,
  type GeoStatus,
  type GeoTarget,
} from '@adloom/contract';
import { z } from 'zod';
import { http } from './client.ts';
import { ApiError, NO_RESPONSE_MESSAGE } from './errors.ts';

/**
 * The geo target calls: POST /api/geo of spec section 7 and the three this app adds (status,
 * search, lookup by criteria IDs). Every call leaves its errors to the caller (`errors: 'caller'`): the New Geo Feed
 * modal says what `describeGeoFailure` gives.
 */

const GeoTargetListSchema = z.array(GeoTargetSchema);

/** Whether the server has Google's geo targets loaded, and which release. */
export function getGeoStatus(): Promise<GeoStatus> {
  return http.get(API.geoStatus, { schema: GeoStatusSchema, errors: 'caller' });
}

/**
 * The live count and first matches of a search while the person types: no loading indicator
 * (the modal shows its own), and `signal` drops an answer a newer search has made stale.
 */
export function searchGeoTargets(
  params: GeoParamsInput,
  limit: number,
  signal?: AbortSignal,
): Promise<GeoSearchAnswer> {
  return http.post(
    API.geoSearch,
    { params, limit },
    {
      schema: GeoSearchAnswerSchema,
      errors: 'caller',
      isLoadingExempt: true,
      ...(signal ? { signal } : {}),
    },
  );
}

/** Every target of a search, in criteria ID order (spec section 7: `{params}`). */
export function fetchGeoTargets(params: GeoParamsInput): Promise<GeoTarget[]> {
  return http.post(API.geo, { params }, { schema: GeoTargetListSchema, errors: 'caller' });
}

/**
 * Google's targets of some criteria IDs (digits only; others are not sent), in turns of at most
 * GEO_LOOKUP_MAX: an ID Google's release lacks is not in the answer. Errors are the caller's
 * (409 geo_not_loaded when the server has no targets loaded).
 */
export async function lookupGeoTargets(ids: Iterable<string>): Promise<GeoTarget[]> {
  const asked = [...new Set([...ids].filter((id) => /^\d{1,18}$/.test(id)))];
  const targets: GeoTarget[] = [];
  for (let i = 0; i < asked.length; i += GEO_LOOKUP_MAX) {
    const answer = await http.post(
      API.geoTargets,
      { ids: asked.slice(i, i + GEO_LOOKUP_MAX) },
      { schema: GeoLookupAnswerSchema, errors: 'caller' },
    );
    targets.push(...answer.targets);
  }
  return targets;
}

/** What the modal does with a failed geo call. */
export type GeoFailure =
  /** 409 geo_not_loaded: the modal shows how an operator loads the targets. */
  | { kind: 'not-loaded' }
  /** The session ended (401) or the server failed (above 499): the generic handler's work. */
  | { kind: 'generic'; error: ApiError }
  /** Anything else: this message, beside the form. */
  | { kind: 'message'; message: string };

/**
 * Spec section 8 for the geo calls: no targets loaded says how to load them, too many matches
 * and bad parameters say the server's message (the first field problem when it names one), and
 * a refused session or a server failure go to the generic handler.
 */
export function describeGeoFailure(error: unknown): GeoFailure {
  if (!(error instanceof ApiError))
    return { kind: 'message', message: error instanceof Error ? error.message : String(error) };
  if (error.code === 'geo_not_loaded') return { kind: 'not-loaded' };
  if (error.status === 401 || error.status > 499) return { kind: 'generic', error };
  if (error.code === 'geo_too_many') return { kind: 'message', message: error.message };
  if (error.status === 0) return { kind: 'message', message: NO_RESPONSE_MESSAGE };
  return { kind: 'message', message: error.fieldErrors[0] ?? error.message };
}
