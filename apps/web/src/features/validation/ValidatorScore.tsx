import { useEffect, useState } from 'react';
import { Modal, Table, Text, UnstyledButton } from '@mantine/core';
import { makeScore, SCORE_NO_MATCH_COLOR } from '@adloom/engine';
import type { FallbackCheck, ValidationResult } from './checks.ts';
import type { FallbackValidator } from './validator.ts';
import './validation.css';

/** Spec section 9: a validator recalculates 300 ms after any change. */
export const VALIDATOR_DEBOUNCE_MS = 300;
/** Spec section 9: the delay before validation first shows. */
export const VALIDATION_SHOW_DELAY_MS = 500;

/** Spec section 4 texts of the validators. */
export const VALIDATOR_TEXTS = {
  calculating: 'Calculating...',
  noFeed: 'NO FEED SELECTED!',
} as const;

/** Props of `ValidatorScore`. */
export interface ValidatorScoreProps<C = FallbackCheck> {
  /** What is scored, e.g. 'Fallback 1' or 'Template'; part of the button's name. */
  label: string;
  /** The fallbacks to check (a new object whenever they change); extensions pass their own check. */
  check: C;
  validator: Pick<FallbackValidator, 'rowCount'> & {
    validate(check: C, signal: AbortSignal, key?: string): Promise<ValidationResult>;
  };
}

type Shown =
  | { state: 'calculating' }
  | { state: 'done'; result: ValidationResult }
  | { state: 'failed'; message: string };

function isCancel(error: unknown): boolean {
  return error instanceof Error && /cancel/i.test(error.message + error.name);
}

/**
 * 'Calculating...' in red, then 300 ms after the last change (500 ms when it first shows)
 * 'valid/total (percent) emoji' in the colour of its band; 'NO FEED SELECTED!' without rows.
 * Choosing the score lists the rows no fallback serves, with the field and the reason.
 */
export function ValidatorScore<C = FallbackCheck>({
  label,
  check,
  validator,
}: ValidatorScoreProps<C>) {
  const [shown, setShown] = useState<Shown>({ state: 'calculating' });
  const [hasShown, setHasShown] = useState(false);
  const [isListOpen, setListOpen] = useState(false);
  const hasRows = validator.rowCount > 0;

  useEffect(() => {
    if (!hasRows) return undefined;
    setShown({ state: 'calculating' });
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        validator.validate(check, controller.signal, label).then(
          (result) => {
            setShown({ state: 'done', result });
            setHasShown(true);
          },
          (error: unknown) => {
            if (controller.signal.aborted || isCancel(error)) return;
            setShown({
              state: 'failed',
              message: error instanceof Error ? error.message : String(error),
            });
          },
        );
      },
      hasShown ? VALIDATOR_DEBOUNCE_MS : VALIDATION_SHOW_DELAY_MS,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // hasShown only picks the first delay; it must not start another run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [check, validator, hasRows, label]);

  let text: string;
  let color: string;
  let result: ValidationResult | null = null;
  if (!hasRows) {
    text = VALIDATOR_TEXTS.noFeed;
    color = SCORE_NO_MATCH_COLOR;
  } else if (shown.state === 'calculating') {
    text = VALIDATOR_TEXTS.calculating;
    color = SCORE_NO_MATCH_COLOR;
  } else if (shown.state === 'failed') {
    text = `Could not check: ${shown.message}`;
    color = SCORE_NO_MATCH_COLOR;
  } else {
    result = shown.result;
    const score = makeScore(result.valid, result.total);
    text = score.text;
    color = score.color;
  }

  return (
    <>
      <UnstyledButton
        className="validator-score"
        aria-haspopup="dialog"
        disabled={result === null}
        onClick={() => setListOpen(true)}
      >
        <span className="validator-score__label">{label} validator:</span>{' '}
        <span className="validator-score__value" style={{ color }} aria-live="polite">
          {text}
        </span>
      </UnstyledButton>
      <Modal
        opened={isListOpen && result !== null}
        onClose={() => setListOpen(false)}
        title={`${label}: rows without a valid fallback`}
        size="xl"
      >
        {result ? <FailingRows result={result} /> : null}
      </Modal>
    </>
  );
}

function FailingRows({ result }: { result: ValidationResult }) {
  if (result.failing === 0)
    return <Text>Every selected row has a valid fallback ({result.total} rows).</Text>;
  return (
    <>
      <Text size="sm" mb="sm">
        {result.failing} of {result.total} selected rows have no valid fallback
        {result.failures.length < result.failing
          ? `; the first ${result.failures.length} are listed`
          : ''}
        . Shorten the text, fix the feed, or add a fallback.
      </Text>
      {/* On a narrow screen the table scrolls sideways: its viewport is a Tab stop, so the arrow
          keys can scroll it. */}
      <Table.ScrollContainer minWidth={520} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
        <Table striped withTableBorder aria-label="Failing rows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              <Table.Th>Values</Table.Th>
              <Table.Th>Field</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.failures.map((f) => (
              <Table.Tr key={f.rowNumber}>
                <Table.Td>{f.feedRowNumber > 0 ? f.feedRowNumber : f.rowNumber}</Table.Td>
                <Table.Td>{f.rowText || '(empty row)'}</Table.Td>
                <Table.Td>{f.field}</Table.Td>
                <Table.Td>{f.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
