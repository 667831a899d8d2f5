import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the browser's own undo history out of the cells. A browser keeps one undo history per
 * page: Ctrl+Z in the filter box, outside the grid or from the Edit menu replays typing it saw
 * in a cell against whatever the cell holds now (after the grid's own undo and redo set it), and
 * the cell's change event then stores text the person never typed ("NIKE EditedNike"). So every
 * browser undo or redo aimed at a cell is refused; one on the focused cell (the Edit or context
 * menu's Undo) runs the grid's own undo or redo instead.
 */
export function useBrowserHistoryGuard(
  scrollerRef: RefObject<HTMLDivElement | null>,
  onUndo: () => void,
  onRedo: () => void,
): void {
  const handlers = useRef({ onUndo, onRedo });
  handlers.current = { onUndo, onRedo };
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const handleBeforeInput = (event: Event) => {
      const inputType = (event as InputEvent).inputType;
      if (inputType !== 'historyUndo' && inputType !== 'historyRedo') return;
      const target = event.target;
      if (!(target instanceof HTMLInputElement) || target.dataset.col === undefined) return;
      event.preventDefault();
      if (target !== document.activeElement) return;
      if (inputType === 'historyUndo') handlers.current.onUndo();
      else handlers.current.onRedo();
    };
    scroller.addEventListener('beforeinput', handleBeforeInput);
    return () => scroller.removeEventListener('beforeinput', handleBeforeInput);
  }, [scrollerRef]);
}
