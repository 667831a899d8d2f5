import { GOOGLE_ADS_EDITOR, type ExportFormat } from '@adloom/engine';

/**
 * The formats the web app exports to, by id (the engine defines each, for the web app and the
 * adloom command alike). A new format: its module in packages/engine/src/formats/, one line here.
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = [GOOGLE_ADS_EDITOR];

/** The id of the format every download uses today. */
export const EDITOR_FORMAT_ID = GOOGLE_ADS_EDITOR.id;

/** The format of `id` among `formats`; fails for an unknown id (a programmer error). */
export function getExportFormat(formats: readonly ExportFormat[], id: string): ExportFormat {
  const format = formats.find((f) => f.id === id);
  if (!format) throw new Error(`Unknown export format ${id}`);
  return format;
}
