import type { FastifyInstance } from 'fastify';
import {
  API,
  GeoBodySchema,
  GeoLookupBodySchema,
  GeoSearchBodySchema,
  type GeoStatus,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate } from '../../auth/session.ts';
import { parseBody } from '../../http/validate.ts';
import {
  findGeoTargets,
  lookupGeoTargets,
  readGeoRelease,
  searchGeoTargets,
} from '../../services/geo.ts';

/**
 * Google's geo targets (issue 16), shared by every signed-in user: which release is loaded,
 * `POST /api/geo` (spec section 7: every target of the search), the modal's live search, and
 * the targets of some criteria IDs (the Microsoft Advertising download's locations).
 */
export default async function geoRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(API.geoStatus, { onRequest: authenticate }, async (): Promise<GeoStatus> => {
    return { release: await readGeoRelease(deps.db) };
  });

  app.post(API.geo, { onRequest: authenticate }, async (request) => {
    const { params } = parseBody(GeoBodySchema, request.body);
    return findGeoTargets(deps.db, params);
  });

  app.post(API.geoSearch, { onRequest: authenticate }, async (request) => {
    const { params, limit } = parseBody(GeoSearchBodySchema, request.body);
    return searchGeoTargets(deps.db, params, limit);
  });

  app.post(API.geoTargets, { onRequest: authenticate }, async (request) => {
    const { ids } = parseBody(GeoLookupBodySchema, request.body);
    return lookupGeoTargets(deps.db, ids);
  });
}
