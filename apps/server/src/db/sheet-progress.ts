import type { SheetProgress } from '@adloom/contract';
import type { Db } from './index.ts';

/** A running call's progress row is answered only while written to within this time. */
const RUNNING_SILENCE_LIMIT_SECONDS = 600;

/** Stores the latest progress of a user's call (`isFinished`: the call has ended). */
export async function saveSheetProgress(
  db: Db,
  input: { userId: string; progressId: string; progress: SheetProgress; isFinished: boolean },
): Promise<void> {
  const { phase, done, total } = input.progress;
  await db.query(
    `insert into sheet_progress (user_id, progress_id, phase, done, total, finished_at)
     values ($1, $2, $3, $4, $5, case when $6::boolean then now() end)
     on conflict (user_id, progress_id) do update set phase = excluded.phase, done = excluded.done,
       total = excluded.total, updated_at = now(), finished_at = excluded.finished_at`,
    [input.userId, input.progressId, phase, done, total, input.isFinished],
  );
}

/** The stored progress of the user's call, while it runs or for `keepMs` after it ended. */
export async function findSheetProgress(
  db: Db,
  input: { userId: string; progressId: string; keepMs: number },
): Promise<SheetProgress | undefined> {
  const rows = await db.query<SheetProgress>(
    `select phase, done, total from sheet_progress
     where user_id = $1 and progress_id = $2
       and (finished_at > now() - make_interval(secs => $3)
         or (finished_at is null and updated_at > now() - make_interval(secs => $4)))`,
    [input.userId, input.progressId, input.keepMs / 1000, RUNNING_SILENCE_LIMIT_SECONDS],
  );
  return rows[0];
}

/** Deletes the progress no longer answered (finished over `keepMs` ago, or silent too long). */
export async function deleteOldSheetProgress(db: Db, keepMs: number): Promise<void> {
  await db.query(
    `delete from sheet_progress
     where finished_at < now() - make_interval(secs => $1)
       or updated_at < now() - make_interval(secs => $2)`,
    [keepMs / 1000, RUNNING_SILENCE_LIMIT_SECONDS],
  );
}
