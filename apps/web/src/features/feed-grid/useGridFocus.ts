import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';
import type { CellPosition } from './gridLayout.ts';
import type { FeedStore } from './feedStore.ts';

/**
 * Keyboard focus over pooled rows: moving to a cell (scrolled into view, focused once its row is
 * rendered), and letting go of an input whose pooled row now shows another row.
 */
export function useGridFocus(
  store: FeedStore,
  columnCount: number,
  scrollerRef: RefObject<HTMLDivElement | null>,
  scrollRowIntoView: (row: number) => void,
) {
  const focusRef = useRef<CellPosition>({ row: 0, col: 0 });
  const pendingFocusRef = useRef<(CellPosition & { select: boolean }) | null>(null);
  const focusedSlotRef = useRef(-1);

  const focusInput = useCallback(
    (position: CellPosition, select: boolean): boolean => {
      const scroller = scrollerRef.current;
      const input = scroller?.querySelector<HTMLInputElement>(
        `input[data-row="${position.row}"][data-col="${position.col}"]`,
      );
      if (!scroller || !input) return false;
      input.focus({ preventScroll: true });
      if (select) input.select();
      const cell = input.parentElement;
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
      const count = store.viewCount;
      if (count === 0) return;
      const position = {
        row: Math.max(0, Math.min(count - 1, row)),
        col: Math.max(0, Math.min(columnCount - 1, col)),
      };
      focusRef.current = position;
      scrollRowIntoView(position.row);
      if (!focusInput(position, true)) pendingFocusRef.current = { ...position, select: true };
    },
    [columnCount, focusInput, scrollRowIntoView, store],
  );

  useLayoutEffect(() => {
    // A pooled row that scrolled away now shows another row: let its input go (committing an edit).
    const active = document.activeElement;
    if (
      active instanceof HTMLInputElement &&
      active.dataset.slot !== undefined &&
      scrollerRef.current?.contains(active)
    ) {
      if (Number(active.dataset.slot) !== focusedSlotRef.current) active.blur();
    }
    const pending = pendingFocusRef.current;
    if (pending && focusInput(pending, pending.select)) pendingFocusRef.current = null;
  });

  const handleCellFocus = useCallback((row: number, col: number, slot: number) => {
    focusRef.current = { row, col };
    focusedSlotRef.current = slot;
  }, []);

  return { moveFocus, handleCellFocus };
}
