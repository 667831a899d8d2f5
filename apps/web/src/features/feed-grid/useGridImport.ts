import { useCallback, useState, type ChangeEvent, type DragEvent } from 'react';
import type { CsvColumnMapping, CsvHead } from './csvImport.ts';
import type { FeedGridNotice } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';
import { importCsvFile } from './importCsvFile.ts';

/** A file whose headers name no feed column, waiting for a person to map its columns. */
export interface CsvMappingRequest {
  file: File;
  head: CsvHead;
}

/**
 * CSV import by the file input or by dropping a file on the grid, with its progress; a file
 * whose headers name no feed column waits in `mappingRequest` for importMapped or cancelMapping.
 */
export function useGridImport(
  store: FeedStore,
  commitEdit: () => void,
  showNotice: (notice: FeedGridNotice) => void,
) {
  const [importProgress, setImportProgress] = useState<number | null>(null);
  const [isDragOver, setIsDragOver] = useState(false);
  const [mappingRequest, setMappingRequest] = useState<CsvMappingRequest | null>(null);

  const runImport = useCallback(
    async (file: File, mapping?: CsvColumnMapping) => {
      commitEdit();
      setImportProgress(0);
      showNotice({ kind: 'info', message: `Importing ${file.name}…` });
      const outcome = await importCsvFile(
        file,
        store,
        (fraction) => setImportProgress(fraction),
        mapping,
      );
      setImportProgress(null);
      if (outcome.ok) {
        showNotice({ kind: 'success', message: outcome.message });
      } else if (outcome.head) {
        showNotice({ kind: 'info', message: `Choose the columns of ${file.name} to import.` });
        setMappingRequest({ file, head: outcome.head });
      } else {
        showNotice({ kind: 'error', message: outcome.message });
      }
    },
    [commitEdit, showNotice, store],
  );

  const importMapped = useCallback(
    (mapping: CsvColumnMapping) => {
      if (!mappingRequest) return;
      setMappingRequest(null);
      void runImport(mappingRequest.file, mapping);
    },
    [mappingRequest, runImport],
  );

  const cancelMapping = useCallback(() => {
    if (mappingRequest)
      showNotice({ kind: 'info', message: `${mappingRequest.file.name} was not imported.` });
    setMappingRequest(null);
  }, [mappingRequest, showNotice]);

  const handleFileInput = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0];
      event.target.value = '';
      if (file) void runImport(file);
    },
    [runImport],
  );

  const handleDragOver = useCallback((event: DragEvent<HTMLDivElement>) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setIsDragOver(true);
  }, []);

  const handleDragLeave = useCallback(() => setIsDragOver(false), []);

  const handleDrop = useCallback(
    (event: DragEvent<HTMLDivElement>) => {
      setIsDragOver(false);
      const file = event.dataTransfer.files[0];
      if (!file) return;
      event.preventDefault();
      void runImport(file);
    },
    [runImport],
  );

  return {
    importProgress,
    isDragOver,
    mappingRequest,
    importMapped,
    cancelMapping,
    handleFileInput,
    handleDragOver,
    handleDragLeave,
    handleDrop,
  };
}
