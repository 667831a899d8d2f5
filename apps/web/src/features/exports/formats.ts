import { GOOGLE_ADS_EDITOR, MICROSOFT_ADVERTISING, type ExportFormat } from '@adloom/engine';

/**
 * The formats the web app exports to, by id (the engine defines each, for the web app and the
 * adloom command alike). A new format: its module in packages/engine/src/formats/, one line here.
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = [GOOGLE_ADS_EDITOR, MICROSOFT_ADVERTISING];

/** The Google Ads Editor format's id: every download's default. */
export const EDITOR_FORMAT_ID = GOOGLE_ADS_EDITOR.id;

/** The Microsoft Advertising bulk file's id (its downloads are zips: the file and its report). */
export const MICROSOFT_FORMAT_ID = MICROSOFT_ADVERTISING.id;

/** A download's format: the Editor files or the Microsoft Advertising bulk file. */
export type DownloadFormat = typeof EDITOR_FORMAT_ID | typeof MICROSOFT_FORMAT_ID;

/** The format of `id` among `formats`; fails for an unknown id (a programmer error). */
export function getExportFormat(formats: readonly ExportFormat[], id: string): ExportFormat {
  const format = formats.find((f) => f.id === id);
  if (!format) throw new Error(`Unknown export format ${id}`);
  return format;
}
