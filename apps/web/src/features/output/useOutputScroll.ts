import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import type { PackedTable } from '../generation/packTable.ts';

/**
 * The output table's scroll position, drawn at most once a frame, and (for a windowed table)
 * the frame's width; a new table scrolls back to its top-left corner.
 */
export function useOutputScroll(table: PackedTable | null, isWindowed: boolean) {
  const [scrollTop, setScrollTop] = useState(0);
  const [scrollLeft, setScrollLeft] = useState(0);
  // Until the frame is measured, the window's width stands in for it (never wider).
  const [frameWidth, setFrameWidth] = useState(() =>
    typeof window === 'undefined' ? 0 : window.innerWidth,
  );
  const scrollerRef = useRef<HTMLDivElement>(null);
  const frame = useRef<number | null>(null);

  // Where the scroller was last seen (its scroll events), so a new table moves it only when it
  // is not at the top: setting scrollTop forces a layout inside the task that draws the table.
  const scrolledTo = useRef({ top: 0, left: 0 });
  useEffect(() => {
    // A new table starts at the top, at its first column.
    setScrollTop(0);
    setScrollLeft(0);
    const scroller = scrollerRef.current;
    if (!scroller || (scrolledTo.current.top === 0 && scrolledTo.current.left === 0)) return;
    scroller.scrollTop = 0;
    scroller.scrollLeft = 0;
    scrolledTo.current = { top: 0, left: 0 };
  }, [table]);

  // Only a windowed table needs the frame's width. A ResizeObserver reports it after layout, so
  // measuring never forces a layout inside the task that drew the table.
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || !isWindowed) return undefined;
    if (typeof ResizeObserver === 'undefined') {
      setFrameWidth(scroller.clientWidth);
      return undefined;
    }
    const observer = new ResizeObserver(() => setFrameWidth(scroller.clientWidth));
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [isWindowed]);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const handleScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    const { scrollTop: top, scrollLeft: left } = event.currentTarget;
    scrolledTo.current = { top, left };
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setScrollTop(scrollerRef.current?.scrollTop ?? top);
      setScrollLeft(scrollerRef.current?.scrollLeft ?? left);
    });
  }, []);

  return { scrollerRef, scrollTop, scrollLeft, frameWidth, handleScroll };
}
