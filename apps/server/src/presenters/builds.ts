/** Presenters of the account loop: stored builds -> the history's answers (never the record). */
import type { BuildSummary } from '@adloom/contract';
import type { BuildRecordRow } from '../db/builds.ts';

/** A stored build as the history lists it. */
export function presentBuild(row: BuildRecordRow): BuildSummary {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    feedName: row.feed_name,
    templateNames: row.template_names,
    templateCount: row.template_count,
    label: row.label,
    counts: row.counts,
    sizeBytes: row.size_bytes,
  };
}
