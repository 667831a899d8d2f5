import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { linkRoutes } from './link.ts';
import { sheetRoutes } from './sheets.ts';

/** The Google account link and the Sheets calls (issue 15). One line per file. */
export default async function googleRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await linkRoutes(app, deps);
  await sheetRoutes(app, deps);
}
