import {
  BUILD_META_HEADER,
  BUILD_RECORD_CONTENT_TYPE,
  LoopSettingsSchema,
  buildRecordPath,
  buildsPath,
  encodeBuildMetaHeader,
  loopSettingsPath,
  type BuildListAnswer,
  type BuildMeta,
  type BuildSummary,
  type LoopSettings,
  type PatchLoopSettingsBody,
} from '@adloom/contract';
import { http } from './client.ts';

/**
 * The account loop's calls (issue 35): a client's build history (the gzip'd build records) and its
 * loop settings, by the client's id. Callers show their own messages (`errors: 'caller'`).
 */

/** The client's builds, newest first (descriptions only). */
export function listBuilds(clientId: string): Promise<BuildListAnswer> {
  return http.get<BuildListAnswer>(buildsPath(clientId), { errors: 'caller' });
}

/** One build's gzip'd record. */
export function loadBuildRecord(clientId: string, buildId: string): Promise<Blob> {
  return http.getBlob(buildRecordPath(clientId, buildId), { errors: 'caller' });
}

/** Stores a build: its gzip'd record as the body, its description in the `adloom-build` header. */
export function storeBuild(clientId: string, meta: BuildMeta, record: Blob): Promise<BuildSummary> {
  return http.request<BuildSummary>(buildsPath(clientId), {
    method: 'POST',
    rawBody: { data: record, contentType: BUILD_RECORD_CONTENT_TYPE },
    headers: { [BUILD_META_HEADER]: encodeBuildMetaHeader(meta) },
    errors: 'caller',
  });
}

export function loadLoopSettings(clientId: string): Promise<LoopSettings> {
  return http.get(loopSettingsPath(clientId), { schema: LoopSettingsSchema, errors: 'caller' });
}

export function saveLoopSettings(
  clientId: string,
  changes: PatchLoopSettingsBody,
): Promise<LoopSettings> {
  return http.request(loopSettingsPath(clientId), {
    method: 'PATCH',
    body: changes,
    schema: LoopSettingsSchema,
    errors: 'caller',
  });
}
