import { useMemo, type ReactNode } from 'react';
import { ActionIcon, Button, Group } from '@mantine/core';
import type { PerformanceMaxFallback, RsaFallback } from '@adloom/engine';
import { ValidatorScore, type FallbackCheck, type FallbackValidator } from '../validation/index.ts';
import { canDeleteFallback } from './fallbackEdit.ts';

type AnyFallback = RsaFallback | PerformanceMaxFallback;

function checkOf(kind: FallbackCheck['kind'], fallbacks: readonly AnyFallback[]): FallbackCheck {
  return kind === 'rsa'
    ? { kind, fallbacks: fallbacks as readonly RsaFallback[] }
    : { kind, fallbacks: fallbacks as readonly PerformanceMaxFallback[] };
}

/** Props of `FallbackSlides`. */
export interface FallbackSlidesProps<F extends AnyFallback> {
  kind: FallbackCheck['kind'];
  fallbacks: readonly F[];
  /** The fallback shown. */
  index: number;
  onIndexChange: (index: number) => void;
  /** Add Fallback (and the add arrow at the end): appends a default fallback. */
  onAdd: () => void;
  /** Delete Fallback: never offered for the first. */
  onDelete: (index: number) => void;
  renderFallback: (fallback: F, index: number) => ReactNode;
  validator: FallbackValidator;
  /** More buttons in the action row (Generate Ads, Ad Preview). */
  actions?: ReactNode;
}

/**
 * The fallback slideshow of spec section 2: previous and next arrows, an add-fallback arrow at
 * the end, Add Fallback, Delete Fallback (not for the first), and the validators of the shown
 * fallback and of the whole template.
 */
export function FallbackSlides<F extends AnyFallback>({
  kind,
  fallbacks,
  index,
  onIndexChange,
  onAdd,
  onDelete,
  renderFallback,
  validator,
  actions,
}: FallbackSlidesProps<F>) {
  const count = fallbacks.length;
  const shown = Math.min(Math.max(index, 0), count - 1);
  const fallback = fallbacks[shown] as F;
  const isLast = shown === count - 1;
  const oneCheck = useMemo(() => checkOf(kind, [fallback]), [kind, fallback]);
  const allCheck = useMemo(() => checkOf(kind, fallbacks), [kind, fallbacks]);

  return (
    <div className="fallback-slides">
      <Group gap="sm" wrap="wrap" className="fallback-slides__actions">
        <Button
          variant="default"
          onClick={() => {
            onAdd();
            onIndexChange(count);
          }}
        >
          Add Fallback
        </Button>
        {canDeleteFallback(shown, count) ? (
          <Button
            variant="default"
            color="red"
            onClick={() => {
              onDelete(shown);
              onIndexChange(shown - 1);
            }}
          >
            Delete Fallback
          </Button>
        ) : null}
        {actions}
      </Group>
      <div className="fallback-slides__nav">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label="Previous fallback"
          title="Previous fallback"
          disabled={shown === 0}
          onClick={() => onIndexChange(shown - 1)}
        >
          ‹
        </ActionIcon>
        <span className="fallback-slides__position" aria-live="polite">
          Fallback {shown + 1} of {count}
        </span>
        {isLast ? (
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Add another fallback"
            title="Add another fallback"
            onClick={() => {
              onAdd();
              onIndexChange(count);
            }}
          >
            +
          </ActionIcon>
        ) : (
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Next fallback"
            title="Next fallback"
            onClick={() => onIndexChange(shown + 1)}
          >
            ›
          </ActionIcon>
        )}
        <div className="fallback-slides__scores">
          <ValidatorScore label={`Fallback ${shown + 1}`} check={oneCheck} validator={validator} />
          {count > 1 ? (
            <ValidatorScore label="All fallbacks" check={allCheck} validator={validator} />
          ) : null}
        </div>
      </div>
      <section aria-label={`Fallback ${shown + 1}`}>{renderFallback(fallback, shown)}</section>
    </div>
  );
}
