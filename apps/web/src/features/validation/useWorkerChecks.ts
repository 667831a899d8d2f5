import { useMemo } from 'react';
import { runEngineJob, useSelectedRows } from '../generation/index.ts';
import { createCoalescingValidator, type FallbackValidator } from './validator.ts';
import { createBatchMeasurer, type TextMeasurer } from './measurer.ts';

/** Lane of the counter and validator jobs: they never wait behind a generation. */
export const VALIDATE_LANE = 'validate';

/**
 * A measurer over the selected rows of the open feed, measuring in the engine worker with
 * `constant` for `{const}`; a new one whenever the rows, the selection or the constant change.
 * For `<TextCounter measurer={...} />`.
 */
export function useTextMeasurer(constant = ''): TextMeasurer {
  const selection = useSelectedRows();
  const { count, version, source } = selection;
  return useMemo(
    () =>
      createBatchMeasurer(count, (texts) =>
        runEngineJob('measureTexts', { texts, constant }, { rows: source, lane: VALIDATE_LANE }),
      ),
    // source is rebuilt on every render; count and version say when the rows change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, version, constant],
  );
}

/**
 * The validator of the selected rows of the open feed, running in the engine worker; every
 * check gets `constant` for `{const}` (the active campaign template's constant).
 */
export function useFallbackValidator(constant: string): FallbackValidator {
  const { count, version, source } = useSelectedRows();
  return useMemo(
    () =>
      createCoalescingValidator(count, version, (check) =>
        runEngineJob(
          'validateFallbacks',
          { ...check, constant },
          { rows: source, lane: VALIDATE_LANE },
        ),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, version, constant],
  );
}
