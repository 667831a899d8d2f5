import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  DownloadDataBodySchema,
  DownloadListBodySchema,
  SHEET_MESSAGES,
  UploadDataBodySchema,
  UploadListBodySchema,
  type SheetDownloadAnswer,
  type SheetProgress,
  type SheetUploadAnswer,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { AppError } from '../../errors.ts';
import { parseBody } from '../../http/validate.ts';
import { getGoogleAccessToken, markGoogleLinkRefused } from '../../services/google-oauth.ts';
import {
  createSheetsClient,
  downloadSheet,
  uploadSheet,
  type SheetCallContext,
} from '../../services/google-sheets.ts';
import { SheetProgressRegistry } from '../../services/sheet-progress.ts';

/**
 * The sheet calls of feeds and lists (spec sections 5 and 7, issue 15): download-data,
 * download-list, upload-data, upload-list, and the progress of a running call. All signed in;
 * the feed named by `_id` is only ever one of the caller's.
 */
export async function sheetRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const progress = new SheetProgressRegistry(deps.db);
  // Uploads carry a whole feed (100k rows and more): the bulk limit, as feed saves have.
  // Downloads too, since clients may send the feed with its rows as `activeFeed`.
  const bulk = { onRequest: authenticate, bodyLimit: deps.config.bodyLimitBytes };

  /** Runs a sheet call of the signed-in user with their access token and progress. */
  async function runSheetCall<T>(
    request: FastifyRequest,
    progressId: string | undefined,
    work: (context: SheetCallContext) => Promise<T>,
  ): Promise<T> {
    const google = deps.config.google;
    if (!google) throw new AppError('not_configured', SHEET_MESSAGES.notConfigured);
    const userId = getUser(request).id;
    const sheets = createSheetsClient({
      baseUrl: google.sheetsUrl,
      retryBaseMs: google.retryBaseMs,
      log: request.log,
      getAccessToken: async (isRenewal) => {
        if (isRenewal) deps.googleTokens.forget(userId);
        return getGoogleAccessToken(deps, userId, request.log);
      },
    });
    const reporter = progress.start(userId, progressId);
    try {
      return await work({ db: deps.db, userId, sheets, progress: reporter });
    } catch (error) {
      // A fresh token refused by Sheets: the account page must offer 'Link again'.
      if (error instanceof AppError && error.code === 'relink_needed')
        await markGoogleLinkRefused(deps, userId);
      throw error;
    } finally {
      reporter.finish();
    }
  }

  app.post(API.google.downloadData, bulk, async (request): Promise<SheetDownloadAnswer> => {
    const body = parseBody(DownloadDataBodySchema, request.body);
    return runSheetCall(request, body.progressId, (context) =>
      downloadSheet(context, body.activeFeed),
    );
  });

  app.post(API.google.downloadList, bulk, async (request): Promise<SheetDownloadAnswer> => {
    const body = parseBody(DownloadListBodySchema, request.body);
    return runSheetCall(request, body.progressId, (context) =>
      downloadSheet(context, body.activeList),
    );
  });

  app.post(API.google.uploadData, bulk, async (request): Promise<SheetUploadAnswer> => {
    const body = parseBody(UploadDataBodySchema, request.body);
    return runSheetCall(request, body.progressId, (context) =>
      uploadSheet(context, body.activeFeed, { rows: body.rows, replace: body.replace === true }),
    );
  });

  app.post(API.google.uploadList, bulk, async (request): Promise<SheetUploadAnswer> => {
    const body = parseBody(UploadListBodySchema, request.body);
    return runSheetCall(request, body.progressId, (context) =>
      uploadSheet(context, body.activeList, {
        rows: body.activeList.rows,
        replace: body.replace === true,
      }),
    );
  });

  app.get<{ Params: { id: string } }>(
    `${API.google.progress}:id`,
    { onRequest: authenticate },
    async (request): Promise<SheetProgress> => {
      const found = await progress.find(getUser(request).id, request.params.id);
      if (!found) throw new AppError('not_found', 'No sheet call is running with that id');
      return found;
    },
  );
}
