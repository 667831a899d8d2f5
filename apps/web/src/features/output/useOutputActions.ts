import { useState } from 'react';
import { copyToClipboard, TABLE_COPIED_MESSAGE } from '../../components/clipboard.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import { runEngineJob } from '../generation/runEngineJob.ts';
import type { PackedTable } from '../generation/packTable.ts';
import { notifyFileError } from '../exports/files.ts';
import { downloadTable, type TableExport } from '../exports/downloads.ts';
import { MICROSOFT_FORMAT_ID } from '../exports/formats.ts';

/**
 * Copy (the copy table, else the table; neutralised for a spreadsheet when `neutraliseCopy`)
 * and the Editor CSV or Microsoft Advertising download, all made in the worker.
 */
export function useOutputActions(
  table: PackedTable | null,
  copyTable: PackedTable | null | undefined,
  editorExport: TableExport | undefined,
  neutraliseCopy = false,
) {
  const [busy, setBusy] = useState<'copy' | 'download' | 'microsoft' | null>(null);
  const copySource = copyTable ?? table;

  async function handleCopy() {
    if (!copySource || copySource.rowCount === 0) return;
    setBusy('copy');
    try {
      // Text, not a Blob: the clipboard takes a two-byte string far faster than it reads a Blob.
      const { text } = await runEngineJob(
        'clipboardText',
        { table: copySource, neutraliseFormulas: neutraliseCopy },
        { lane: 'output' },
      );
      await copyToClipboard(text);
      notifySuccess(TABLE_COPIED_MESSAGE);
    } catch (error) {
      notifyError(`Could not copy the table: ${describeLocalFailure(error)}`);
    } finally {
      setBusy(null);
    }
  }

  /** The Editor CSV, or with `microsoft` the Microsoft Advertising zip (bulk file and report). */
  async function handleDownload(microsoft = false) {
    if (!table || !editorExport || table.rowCount === 0) return;
    setBusy(microsoft ? 'microsoft' : 'download');
    try {
      await downloadTable(
        { packed: table },
        editorExport,
        microsoft ? { lane: 'output', format: MICROSOFT_FORMAT_ID } : { lane: 'output' },
      );
    } catch (error) {
      notifyFileError(error);
    } finally {
      setBusy(null);
    }
  }

  return { copySource, busy, handleCopy, handleDownload };
}
