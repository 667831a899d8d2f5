// Kept outputs and their exports: the registry of what the template tabs generated, where each
// came from ("Made from" notes), the tables each template kind exports, and every download.
export { DownloadEverything } from './DownloadEverything.tsx';
export { MicrosoftLocationsFile } from './MicrosoftLocationsFile.tsx';
export { indexedDbMicrosoftLocations } from './microsoftLocationsStore.ts';
export { KeptOutputsContext } from './keptOutputs.ts';
export { notifyFileError, saveBlob } from './files.ts';
export { downloadTable, downloadTablesZip } from './downloads.ts';
export { useDownloadTarget, type DownloadTarget } from './downloadTarget.ts';
export type { ExportableKind, ExportTableRef } from './exportables.ts';
