import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Modal, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  BREAKPOINT_WIDE_PREVIEW_PX,
  FEED_COLUMNS,
  type PerformanceMaxTemplate,
  type RsaTemplate,
  seededRandom,
} from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { PerformanceFallbackEditor } from './PerformanceFallbackEditor.tsx';
import { RsaFallbackEditor } from './RsaFallbackEditor.tsx';
import { setFallback } from './fallbackEdit.ts';
import { slideFor, type PreviewTemplate, type Slide } from '../preview/previewModel.ts';
import type { PreviewRows } from '../preview/previewRows.ts';
import { FEED_COLUMN_LABELS } from '../feed-grid/index.ts';
import './preview.css';

/** Spec section 9: the preview's progress bar fills to 5000 in ticks of 1000 ms. */
export const PREVIEW_PROGRESS_MAX = 5000;
export const PREVIEW_PROGRESS_TICK_MS = 1000;

/** Props of `AdPreviewModal`. */
export type AdPreviewModalProps = {
  opened: boolean;
  onClose: () => void;
  /** The selected rows the slideshow steps through (each read when it shows). */
  rows: PreviewRows;
  /**
   * The first row a fallback serves (over all the rows, found in the engine worker), or -1:
   * the slideshow opens there, or on the first row stopped at FALLBACK NEEDED.
   */
  startRow: number;
  measurer: TextMeasurer;
  /** The active campaign template's constant, the value of `{const}`. */
  constant: string;
} & AdPreviewSubject;

/** The template the preview shows, and where its fallback edits go. */
export type AdPreviewSubject =
  | { kind: 'rsa'; template: RsaTemplate; onChange: (next: RsaTemplate) => void }
  | {
      kind: 'performance';
      template: PerformanceMaxTemplate;
      onChange: (next: PerformanceMaxTemplate) => void;
    };

/**
 * The ad preview of spec section 2: fallback tabs ('Fallback n' above 1600 px, else 'FB n')
 * with the editable fallback, the mock search ad of the current row (the first valid fallback,
 * pins honoured), Shuffle, the current row, step back / play or pause / step forward, and a
 * progress bar to 5000 that moves on every 5 seconds.
 */
export function AdPreviewModal(props: AdPreviewModalProps) {
  const { opened, onClose, rows, startRow, measurer, constant } = props;
  const isWide = useMediaQuery(`(min-width: ${BREAKPOINT_WIDE_PREVIEW_PX + 1}px)`) ?? false;
  const subject: PreviewTemplate = useMemo(
    () =>
      props.kind === 'rsa'
        ? { kind: 'rsa', template: props.template, constant }
        : { kind: 'performance', template: props.template, constant },
    [props.kind, props.template, constant],
  );
  const [rowIndex, setRowIndex] = useState(0);
  const [tab, setTab] = useState(0);
  const [isPlaying, setPlaying] = useState(false);
  const [progress, setProgress] = useState(0);
  const [shuffleSeed, setShuffleSeed] = useState<number | null>(null);
  // The editable fallback renders a moment after the ad, so opening is two short tasks.
  const [isEditorShown, setEditorShown] = useState(false);
  useEffect(() => {
    if (!opened) return undefined;
    const timer = setTimeout(() => setEditorShown(true), 0);
    return () => {
      clearTimeout(timer);
      setEditorShown(false);
    };
  }, [opened]);

  // On opening: the first row a fallback serves; play from there (or stop at FALLBACK NEEDED).
  useEffect(() => {
    if (!opened) return;
    const start = startRow >= 0 && startRow < rows.count ? startRow : 0;
    setRowIndex(start);
    const slide = slideFor(subject, rows.rowAt(start));
    setTab(slide.status === 'ok' ? slide.fallbackIndex : 0);
    setPlaying(slide.status === 'ok');
    setProgress(0);
    setShuffleSeed(null);
    // Only on opening: later edits must not restart the slideshow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const row = rows.rowAt(rowIndex);
  const random = shuffleSeed === null ? undefined : seededRandom(shuffleSeed);
  const slide: Slide = slideFor(subject, row, random);

  function goTo(index: number, keepPlaying: boolean) {
    const count = rows.count;
    if (count === 0) return;
    const next = ((index % count) + count) % count;
    setRowIndex(next);
    setProgress(0);
    const nextSlide = slideFor(subject, rows.rowAt(next));
    if (nextSlide.status === 'ok') setTab(nextSlide.fallbackIndex);
    if (nextSlide.status === 'fallback-needed' || !keepPlaying) setPlaying(false);
  }

  // The slideshow: progress ticks every second; at 5000 the next row shows.
  useEffect(() => {
    if (!opened || !isPlaying || rows.count === 0) return undefined;
    const timer = setInterval(() => {
      setProgress((p) => Math.min(p + PREVIEW_PROGRESS_TICK_MS, PREVIEW_PROGRESS_MAX));
    }, PREVIEW_PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [opened, isPlaying, rows.count]);

  useEffect(() => {
    if (isPlaying && progress >= PREVIEW_PROGRESS_MAX) goTo(rowIndex + 1, true);
    // goTo reads the current template and rows; it runs only when the bar is full.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [progress, isPlaying]);

  const fallbacks = props.template.templates;
  const shownTab = Math.min(tab, fallbacks.length - 1);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={props.kind === 'rsa' ? 'Responsive Search Ad preview' : 'Performance Max ad preview'}
      size="min(96vw, 1400px)"
      className="ad-preview"
    >
      <div className="ad-preview__layout">
        <div className="ad-preview__show">
          {slide.status === 'ok' ? (
            <article className="mock-ad" aria-label="Ad preview">
              <div className="mock-ad__top">
                <span className="mock-ad__tag">Ad</span>
                <span className="mock-ad__url">{slide.ad.displayUrl || 'example.com'}</span>
              </div>
              <h3 className="mock-ad__headline">{slide.ad.headline}</h3>
              <p className="mock-ad__description">{slide.ad.descriptions.join(' ')}</p>
              <Text size="xs" c="dimmed">
                From fallback {slide.fallbackIndex + 1}
              </Text>
            </article>
          ) : (
            <p className="ad-preview__message" role="status">
              {slide.message}
            </p>
          )}
          <Group gap="xs" wrap="wrap" className="ad-preview__controls">
            <Button
              variant="default"
              onClick={() => goTo(rowIndex - 1, isPlaying)}
              disabled={rows.count === 0}
            >
              Step back
            </Button>
            <Button onClick={() => setPlaying(!isPlaying)} disabled={rows.count === 0}>
              {isPlaying ? 'Pause' : 'Play'}
            </Button>
            <Button
              variant="default"
              onClick={() => goTo(rowIndex + 1, isPlaying)}
              disabled={rows.count === 0}
            >
              Step forward
            </Button>
            <Button
              variant="light"
              onClick={() => setShuffleSeed(Math.floor(Math.random() * 2 ** 31))}
              disabled={slide.status !== 'ok'}
            >
              Shuffle
            </Button>
          </Group>
          <div
            className="ad-preview__progress"
            role="progressbar"
            aria-label="Time to the next row"
            aria-valuemin={0}
            aria-valuemax={PREVIEW_PROGRESS_MAX}
            aria-valuenow={progress}
          >
            <div
              className="ad-preview__progress-bar"
              style={{ width: `${(progress / PREVIEW_PROGRESS_MAX) * 100}%` }}
            />
          </div>
          <section className="ad-preview__row" aria-label="Current row">
            <Text size="sm" fw={600}>
              {rows.count === 0
                ? 'No row'
                : `Row ${rows.gridRowAt(rowIndex)} (${rowIndex + 1} of ${rows.count} selected)`}
            </Text>
            {row ? (
              <dl className="ad-preview__values">
                {FEED_COLUMNS.map((c) => (
                  <div key={c}>
                    <dt>{FEED_COLUMN_LABELS[c]}</dt>
                    <dd>{row[c] || '—'}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </section>
        </div>
        <div className="ad-preview__edit">
          <Tabs
            value={String(shownTab)}
            onChange={(value) => setTab(Number(value ?? 0))}
            keepMounted={false}
          >
            <Tabs.List aria-label="Fallbacks">
              {fallbacks.map((_, i) => (
                <Tabs.Tab key={i} value={String(i)}>
                  {isWide ? `Fallback ${i + 1}` : `FB ${i + 1}`}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {fallbacks.map((fallback, i) => (
              <Tabs.Panel key={i} value={String(i)} pt="sm">
                {!isEditorShown ? null : props.kind === 'rsa' ? (
                  <RsaFallbackEditor
                    fallback={fallback as RsaTemplate['templates'][number]}
                    measurer={measurer}
                    onChange={(next) => props.onChange(setFallback(props.template, i, next))}
                  />
                ) : (
                  <PerformanceFallbackEditor
                    fallback={fallback as PerformanceMaxTemplate['templates'][number]}
                    measurer={measurer}
                    onChange={(next) => props.onChange(setFallback(props.template, i, next))}
                    hasRules={false}
                  />
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
        </div>
      </div>
    </Modal>
  );
}
