import { useMemo } from 'react';
import { runEngineJob, useSelectedRows } from '../generation/index.ts';
import { createCoalescingValidator, type FallbackValidator } from './validator.ts';
import { createBatchMeasurer, type TextMeasurer } from './measurer.ts';

/** Lane of the counter and validator jobs: they never wait behind a generation. */
export const VALIDATE_LANE = 'validate';

/**
 * A measurer over the selected rows of the open feed, measuring in the engine worker; a new
 * one whenever the rows or the selection change. For `<TextCounter measurer={...} />`.
 */
export function useTextMeasurer(): TextMeasurer {
  const selection = useSelectedRows();
  const { count, version, source } = selection;
  return useMemo(
    () =>
      createBatchMeasurer(count, (texts) =>
        runEngineJob('measureTexts', { texts }, { rows: source, lane: VALIDATE_LANE }),
      ),
    // source is rebuilt on every render; count and version say when the rows change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, version],
  );
}

/** The validator of the selected rows of the open feed, running in the engine worker. */
export function useFallbackValidator(): FallbackValidator {
  const { count, version, source } = useSelectedRows();
  return useMemo(
    () =>
      createCoalescingValidator(count, version, (check) =>
        runEngineJob('validateFallbacks', check, { rows: source, lane: VALIDATE_LANE }),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, version],
  );
}
