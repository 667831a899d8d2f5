import { getAdsEditorTable } from '../ad-templates/adJobs.ts';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import { zipEditorTables } from '../output/outputJobs.ts';
import { unpackTable } from '../generation/packTable.ts';
import type { EditorZipFile } from './editorFiles.ts';

/** Input of the everything-zip job. */
export interface ZipEditorFilesInput {
  files: EditorZipFile[];
}

/**
 * Every Editor file in one zip, each with the bytes of its tab's own download. Runs on the lane
 * that generated the ads (the default one): the ads' Editor tables are made from what that
 * worker keeps.
 */
export const zipEditorFilesJob: EngineJobHandler<ZipEditorFilesInput, { blob: Blob }> = (input) => {
  const tables = input.files.map((file) => ({
    name: file.name,
    table: 'ads' in file ? getAdsEditorTable(file.ads) : unpackTable(file.table),
  }));
  return { blob: zipEditorTables(tables) };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    zipEditorFiles: typeof zipEditorFilesJob;
  }
}
