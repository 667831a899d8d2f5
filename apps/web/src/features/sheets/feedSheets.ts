import {
  GOOGLE_SHEETS_INTEGRATION,
  SHEET_MESSAGES,
  type SheetDownloadAnswer,
  type SheetProgress,
  type SheetUploadAnswer,
  type StoredFeed,
} from '@adloom/contract';
import type { FeedRow } from '@adloom/engine';
import { handleApiError } from '../../api/client.ts';
import {
  describeSheetFailure,
  downloadData,
  downloadList,
  getSheetProgress,
  uploadData,
  uploadList,
  type SheetDirection,
} from '../../api/google.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { session } from '../../state/session.ts';
import { createStore, type Store } from '../../state/store.ts';
import type { FeedMeta, FeedSetEditor } from '../builder/feedSetEditor.ts';
import { newProgressId, watchSheetProgress } from './sheetProgress.ts';
import type { SheetKeep } from './sheetText.ts';

/** The toast link of a failure fixed on the account page. */
const TO_ACCOUNT = { label: 'Go to Account', to: '/account' } as const;

function dropSheetsIntegration(): void {
  session.updateUser((user) =>
    user.integrations.includes(GOOGLE_SHEETS_INTEGRATION)
      ? {
          ...user,
          integrations: user.integrations.filter((i) => i !== GOOGLE_SHEETS_INTEGRATION),
        }
      : user,
  );
}

/** A sheet call running for a feed or list. */
export interface SheetActivity {
  direction: SheetDirection;
  /** The feed or list whose rows move. */
  name: string;
  /** Rows moved so far, once the call has run 2 s. */
  progress: SheetProgress | null;
}

/** Why a linked feed shows its kept copy: its sheet could not be read. */
export interface SheetUnreachable {
  message: string;
  hint?: string;
  toAccount?: boolean;
}

/** An upload waiting for the person to confirm replacing rows only the sheet holds. */
export interface PendingReplace {
  name: string;
  otherRows: number;
  /** The sheet the upload goes to (a new one when the upload links the feed). */
  sheetUrl: string;
}

/** The sheet state of one feed set. */
export interface FeedSheetsState {
  activity: SheetActivity | null;
  /** Linked feeds, by name, whose last download failed (they show their kept copy). */
  unreachable: Readonly<Record<string, SheetUnreachable>>;
  pendingReplace: PendingReplace | null;
  /**
   * A linked feed chosen with edits not uploaded yet: it was not downloaded, so they stay
   * (Upload Data sends them, Download Data replaces them).
   */
  heldBack: string | null;
}

/** What FeedSheets needs beyond the editor. */
export interface FeedSheetsDeps {
  /** Called with the rows read from a linked list or data table outside the edited set. */
  onOtherRead?(name: string, answer: SheetDownloadAnswer): void;
}

const initialState: FeedSheetsState = {
  activity: null,
  unreachable: {},
  pendingReplace: null,
  heldBack: null,
};

/**
 * The Google Sheets side of one feed set (a client's feeds, or the user's lists): choosing a
 * linked feed downloads it (the kept copy shows meanwhile, and stays when the sheet cannot be
 * read), Download Data, Upload Data (asking before it replaces rows only the sheet holds), Link
 * New Sheet and clearing a link, and reading linked lists for the builder's list dropdowns. One
 * sheet call at a time; its progress is polled after 2 s.
 */
export class FeedSheets {
  readonly state: Store<FeedSheetsState> = createStore(initialState);
  private readonly editor: FeedSetEditor;
  private readonly deps: FeedSheetsDeps;
  /** The set and feed last shown, so choosing a linked feed downloads it once. */
  private shownKey: string | null = null;
  private shownFeed: string | null = null;
  private readonly unsubscribe: () => void;

  constructor(editor: FeedSetEditor, deps: FeedSheetsDeps = {}) {
    this.editor = editor;
    this.deps = deps;
    this.unsubscribe = editor.state.subscribe(() => this.handleEditorChange());
  }

  private patch(update: Partial<FeedSheetsState>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  /** True while a sheet call runs (the toolbar is disabled). */
  get isBusy(): boolean {
    return this.state.get().activity !== null;
  }

  private handleEditorChange(): void {
    const { key, activeFeed } = this.editor.state.get();
    if (key === this.shownKey && activeFeed === this.shownFeed) return;
    if (key !== this.shownKey) this.patch({ unreachable: {}, heldBack: null });
    this.shownKey = key;
    this.shownFeed = activeFeed;
    if (key === null || activeFeed === null || !this.editor.findFeed(activeFeed)?.sheetUrl) return;
    if (this.editor.hasEditedRows(activeFeed)) this.patch({ heldBack: activeFeed });
    else void this.download(activeFeed);
  }

  /**
   * Reads a linked feed's sheet into it. Success replaces its rows (the server keeps them as
   * the copy, so nothing becomes unsaved); failure keeps the copy and says why.
   */
  async download(name: string): Promise<boolean> {
    const meta = this.editor.findFeed(name);
    if (!meta?.sheetUrl || this.isBusy) return false;
    const key = this.editor.state.get().key;
    const answer = await this.run('download', name, (progressId) =>
      meta.dataType === 'list'
        ? downloadList(meta, { progressId })
        : downloadData(meta, { progressId }),
    );
    if (this.editor.state.get().key !== key) return false;
    if (!answer.ok) {
      if (answer.unreachable) this.setUnreachable(name, answer.unreachable);
      return false;
    }
    this.setUnreachable(name, null);
    this.editor.applySheetSync(name, answer.value, answer.value.formattedRows);
    return true;
  }

  /**
   * Writes a feed's rows to its sheet (or, linking it, to `sheetUrl`). A sheet holding rows the
   * feed does not waits for the person (state.pendingReplace); `replace` confirms.
   */
  async upload(
    name: string,
    options: { sheetUrl?: string; replace?: boolean } = {},
  ): Promise<boolean> {
    const meta = this.editor.findFeed(name);
    const sheetUrl = options.sheetUrl ?? meta?.sheetUrl ?? '';
    if (!meta || !sheetUrl || this.isBusy) return false;
    const key = this.editor.state.get().key;
    const linked: FeedMeta = { ...meta, sheetUrl };
    const rows = this.editor.getFeedRows(name);
    const replace = options.replace === true;
    const answer = await this.run('upload', name, (progressId) =>
      meta.dataType === 'list'
        ? uploadList(linked, rows, { replace, progressId })
        : uploadData(linked, rows, { replace, progressId }),
    );
    if (this.editor.state.get().key !== key) return false;
    if (!answer.ok) {
      if (answer.otherRows !== undefined)
        this.patch({ pendingReplace: { name, otherRows: answer.otherRows, sheetUrl } });
      return false;
    }
    this.setUnreachable(name, null);
    notifySuccess(SHEET_MESSAGES.uploaded);
    // The sheet holds these rows now: no edit of them waits for an upload.
    this.editor.applySheetSync(name, answer.value);
    return sheetUrl === meta.sheetUrl || this.finishLink(name, sheetUrl, answer.value);
  }

  /** Replace on the replace question: the upload goes again, confirmed. */
  confirmReplace(): Promise<boolean> {
    const pending = this.state.get().pendingReplace;
    this.patch({ pendingReplace: null });
    if (!pending) return Promise.resolve(false);
    return this.upload(pending.name, { sheetUrl: pending.sheetUrl, replace: true });
  }

  cancelReplace(): void {
    this.patch({ pendingReplace: null });
  }

  /**
   * Link New Sheet (spec section 4): the feed is saved first when the server does not know it
   * yet (the sheet's copy is kept on it), then its rows go to the sheet or the sheet's rows
   * come into it, then the link is saved.
   */
  async link(name: string, sheetUrl: string, keep: SheetKeep): Promise<boolean> {
    if (!this.editor.findFeed(name)?._id) {
      const outcome = await this.editor.save();
      if (outcome !== 'saved') return false;
    }
    const meta = this.editor.findFeed(name);
    if (!meta) return false;
    if (keep === 'upload') return this.upload(name, { sheetUrl });
    const key = this.editor.state.get().key;
    const answer = await this.run('download', name, (progressId) =>
      meta.dataType === 'list'
        ? downloadList({ ...meta, sheetUrl }, { progressId })
        : downloadData({ ...meta, sheetUrl }, { progressId }),
    );
    if (!answer.ok || this.editor.state.get().key !== key) return false;
    this.editor.applySheetSync(name, answer.value, answer.value.formattedRows);
    return this.finishLink(name, sheetUrl, answer.value);
  }

  private async finishLink(
    name: string,
    sheetUrl: string,
    answer: SheetDownloadAnswer | SheetUploadAnswer,
  ): Promise<boolean> {
    this.setUnreachable(name, null);
    this.editor.setSheetLink(name, {
      sheetUrl,
      sheetName: answer.sheetName,
      sheetSync: answer.sheetSync,
    });
    return (await this.editor.save()) === 'saved';
  }

  /** The x beside 'Linked Sheet': the link goes, the rows stay as the feed's own. */
  clearLink(name: string): void {
    this.setUnreachable(name, null);
    this.editor.setSheetLink(name, { sheetUrl: '', sheetName: '' });
  }

  /**
   * The rows of a list or data table of the user's lists for the builder's dropdowns: read from
   * its sheet when it is linked (null, and the message, when that fails).
   */
  async readRows(feed: StoredFeed): Promise<FeedRow[] | null> {
    if (!feed.sheetUrl) return feed.rows;
    if (this.isBusy) return null;
    const answer = await this.run('download', feed.name, (progressId) =>
      feed.dataType === 'list'
        ? downloadList(feed, { progressId })
        : downloadData(feed, { progressId }),
    );
    if (!answer.ok) return null;
    this.deps.onOtherRead?.(feed.name, answer.value);
    return answer.value.formattedRows;
  }

  private setUnreachable(name: string, unreachable: SheetUnreachable | null): void {
    if (!unreachable && this.state.get().heldBack === name) this.patch({ heldBack: null });
    const current = this.state.get().unreachable;
    if (!unreachable && !(name in current)) return;
    const { [name]: _old, ...rest } = current;
    this.patch({ unreachable: unreachable ? { ...rest, [name]: unreachable } : rest });
  }

  /**
   * Runs one sheet call with its progress followed, and turns a failure into its message (a
   * toast with the answer's HTTP status, and the way to the account page when the fix is there;
   * a refused session or a server failure through the generic handler).
   */
  private async run<T>(
    direction: SheetDirection,
    name: string,
    call: (progressId: string) => Promise<T>,
  ): Promise<
    { ok: true; value: T } | { ok: false; unreachable?: SheetUnreachable; otherRows?: number }
  > {
    const progressId = newProgressId();
    this.patch({ activity: { direction, name, progress: null } });
    const stop = watchSheetProgress(
      () => getSheetProgress(progressId),
      (progress) => {
        const activity = this.state.get().activity;
        if (activity?.name === name) this.patch({ activity: { ...activity, progress } });
      },
    );
    try {
      return { ok: true, value: await call(progressId) };
    } catch (error) {
      const failure = describeSheetFailure(error, direction);
      if (failure.kind === 'confirm-replace') return { ok: false, otherRows: failure.otherRows };
      if (failure.kind === 'generic') {
        handleApiError(failure.error);
        return failure.note === undefined
          ? { ok: false }
          : { ok: false, unreachable: { message: failure.note } };
      }
      notifyError(failure.message, failure.toAccount ? TO_ACCOUNT : undefined, failure.status);
      // The server holds no usable link: Link New Sheet goes until the account is linked again.
      if (failure.toAccount) dropSheetsIntegration();
      const { kind: _kind, status: _status, ...unreachable } = failure;
      return { ok: false, unreachable };
    } finally {
      stop();
      this.patch({ activity: null });
    }
  }

  dispose(): void {
    this.unsubscribe();
  }
}
