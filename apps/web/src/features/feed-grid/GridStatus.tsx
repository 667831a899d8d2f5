import type { FeedGridNotice } from './gridLayout.ts';

/** The line under the toolbar: import progress, or the last notice. */
export function GridStatus({
  importProgress,
  notice,
}: {
  importProgress: number | null;
  notice: FeedGridNotice | null;
}) {
  return (
    <div className="feed-grid__status" role="status">
      {importProgress !== null ? (
        <>
          <progress max={1} value={importProgress} aria-label="Import progress" />{' '}
          <span>Importing… {Math.round(importProgress * 100)}%</span>
        </>
      ) : notice ? (
        <span className={`feed-grid__notice feed-grid__notice--${notice.kind}`}>
          {notice.message}
        </span>
      ) : null}
    </div>
  );
}
