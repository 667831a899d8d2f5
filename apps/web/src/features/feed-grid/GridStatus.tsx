import type { FeedGridNotice } from './gridLayout.ts';

/** The line under the toolbar: import progress, or the last notice. */
export function GridStatus({
  importProgress,
  notice,
  onUndo,
}: {
  importProgress: number | null;
  notice: FeedGridNotice | null;
  /** The grid's Undo, for a notice that offers it (the notice goes once history moves). */
  onUndo: () => void;
}) {
  return (
    <div className="feed-grid__status" role="status">
      {importProgress !== null ? (
        <>
          <progress max={1} value={importProgress} aria-label="Import progress" />{' '}
          <span>Importing… {Math.round(importProgress * 100)}%</span>
        </>
      ) : notice ? (
        <>
          <span className={`feed-grid__notice feed-grid__notice--${notice.kind}`}>
            {notice.message}
          </span>
          {notice.undoLabel ? (
            <button
              type="button"
              className="feed-grid__button feed-grid__button--small"
              aria-label={notice.undoLabel}
              onClick={onUndo}
            >
              Undo
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
