import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type RefObject,
} from 'react';
import { FIRST_VALUE_CELL, HEADER_ROW, type CellPosition } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';

/**
 * Keyboard focus over pooled rows, as one Tab stop: the active cell (the only one with
 * tabIndex 0), moving to a cell (scrolled into view, focused once its row is rendered), and
 * letting go of a cell whose pooled row now shows another row.
 */
export function useGridFocus(
  store: FeedStore,
  columnCount: number,
  scrollerRef: RefObject<HTMLDivElement | null>,
  scrollRowIntoView: (row: number) => void,
) {
  const [active, setActive] = useState<CellPosition>({ row: 0, col: FIRST_VALUE_CELL });
  const pendingFocusRef = useRef<CellPosition | null>(null);
  const focusedSlotRef = useRef(-1);

  const focusCell = useCallback(
    (position: CellPosition): boolean => {
      const scroller = scrollerRef.current;
      const target = scroller?.querySelector<HTMLElement>(
        `[data-row="${position.row}"][data-cell="${position.col}"]`,
      );
      if (!scroller || !target) return false;
      target.focus({ preventScroll: true });
      if (target instanceof HTMLInputElement && target.type === 'text') target.select();
      const cell = target.closest<HTMLElement>('[role="gridcell"], [role="columnheader"]');
      if (cell) {
        if (cell.offsetLeft < scroller.scrollLeft) scroller.scrollLeft = cell.offsetLeft;
        else if (cell.offsetLeft + cell.offsetWidth > scroller.scrollLeft + scroller.clientWidth) {
          scroller.scrollLeft = cell.offsetLeft + cell.offsetWidth - scroller.clientWidth;
        }
      }
      return true;
    },
    [scrollerRef],
  );

  const moveFocus = useCallback(
    (row: number, col: number) => {
      const position = {
        row: Math.max(HEADER_ROW, Math.min(store.viewCount - 1, row)),
        col: Math.max(0, Math.min(columnCount + FIRST_VALUE_CELL, col)),
      };
      setActive(position);
      if (position.row !== HEADER_ROW) scrollRowIntoView(position.row);
      if (!focusCell(position)) pendingFocusRef.current = position;
    },
    [columnCount, focusCell, scrollRowIntoView, store],
  );

  useLayoutEffect(() => {
    // A pooled row that scrolled away now shows another row: let its cell go (committing an edit).
    const active = document.activeElement;
    if (
      active instanceof HTMLElement &&
      active.dataset.slot !== undefined &&
      scrollerRef.current?.contains(active)
    ) {
      if (Number(active.dataset.slot) !== focusedSlotRef.current) active.blur();
    }
    const pending = pendingFocusRef.current;
    if (pending && focusCell(pending)) pendingFocusRef.current = null;
  });

  // Any cell focused (by a click, a key or a program) becomes the active cell; the scroller
  // itself is a Tab stop only while the active cell's row is scrolled away, and hands the
  // keyboard focus on to that cell.
  const handleGridFocus = useCallback(
    (event: FocusEvent<HTMLDivElement>) => {
      const target = event.target;
      if (target === event.currentTarget) {
        if (target.matches(':focus-visible')) moveFocus(active.row, active.col);
        return;
      }
      if (target.dataset.cell === undefined) return;
      focusedSlotRef.current = target.dataset.slot === undefined ? -1 : Number(target.dataset.slot);
      const row = Number(target.dataset.row);
      const col = Number(target.dataset.cell);
      setActive((previous) =>
        previous.row === row && previous.col === col ? previous : { row, col },
      );
    },
    [active, moveFocus],
  );

  return { active, moveFocus, handleGridFocus };
}
