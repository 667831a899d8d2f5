import { useCallback, useState, type ChangeEvent, type DragEvent } from 'react';
import type { FeedGridNotice } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';
import { importCsvFile } from './importCsvFile.ts';

/** CSV import by the file input or by dropping a file on the grid, with its progress. */
export function useGridImport(
  store: FeedStore,
  commitEdit: () => void,
  showNotice: (notice: FeedGridNotice) => void,
) {
  const [importProgress, setImportProgress] = useState<number | null>(null);
  const [isDragOver, setIsDragOver] = useState(false);

  const runImport = useCallback(
    async (file: File) => {
      commitEdit();
      setImportProgress(0);
      showNotice({ kind: 'info', message: `Importing ${file.name}…` });
      const outcome = await importCsvFile(file, store, (fraction) => setImportProgress(fraction));
      setImportProgress(null);
      showNotice({ kind: outcome.ok ? 'success' : 'error', message: outcome.message });
    },
    [commitEdit, showNotice, store],
  );

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
    handleFileInput,
    handleDragOver,
    handleDragLeave,
    handleDrop,
  };
}
