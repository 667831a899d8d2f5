import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import {
  FEED_ROW_HEIGHT_PX,
  HEADER_HEIGHT_PX,
  LAYER_BLOCK_PX,
  MAX_SCROLL_HEIGHT_PX,
} from './gridLayout.ts';

/**
 * The grid's windowing: the scroll spacer's height (capped, with the scroll position scaled by
 * `factor` beyond it), the row layer moved at once on scroll, and a re-render only when the
 * first row in view or the layer's origin changes.
 */
export function useGridScroll(viewCount: number, height: number) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const totalHeight = viewCount * FEED_ROW_HEIGHT_PX;
  const spacerHeight = Math.min(totalHeight, MAX_SCROLL_HEIGHT_PX);
  const bodyViewHeight = Math.max(1, height - HEADER_HEIGHT_PX);
  const factor =
    totalHeight > spacerHeight && spacerHeight > bodyViewHeight
      ? (totalHeight - bodyViewHeight) / (spacerHeight - bodyViewHeight)
      : 1;
  const factorRef = useRef(factor);
  factorRef.current = factor;
  // What the rendered rows depend on besides the store: the first row in view and the layer's
  // origin. A scroll that changes neither (most scroll events of a small step) renders nothing.
  const [, setScrollWindow] = useState({ first: 0, origin: 0 });

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return undefined;
    // Our own windowing: rows have one fixed height, so the range is arithmetic. (A generic
    // virtualizer keeps an object per row and rebuilds them all whenever the row count
    // changes: a million objects on opening a big feed, adding or deleting a row.)
    const handleScroll = () => {
      const scrollTop = scroller.scrollTop;
      const offset = scrollTop * factorRef.current;
      const origin = Math.floor(offset / LAYER_BLOCK_PX) * LAYER_BLOCK_PX;
      // The layer follows at once; the rows are rendered in their own task after this event,
      // not inside it, so the frame that handles the scroll only moves pixels.
      if (layerRef.current)
        layerRef.current.style.transform = `translateY(${scrollTop - offset + origin}px)`;
      const first = Math.floor(offset / FEED_ROW_HEIGHT_PX);
      setScrollWindow((previous) =>
        previous.first === first && previous.origin === origin ? previous : { first, origin },
      );
    };
    scroller.addEventListener('scroll', handleScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', handleScroll);
  }, []);

  const scrollRowIntoView = useCallback((row: number) => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const viewHeight = Math.max(1, scroller.clientHeight - HEADER_HEIGHT_PX);
    const offset = scroller.scrollTop * factorRef.current;
    const start = row * FEED_ROW_HEIGHT_PX;
    const end = start + FEED_ROW_HEIGHT_PX;
    let target = offset;
    if (start < offset) target = start;
    else if (end > offset + viewHeight) target = end - viewHeight;
    if (target !== offset) scroller.scrollTop = Math.ceil(target / factorRef.current);
  }, []);

  return { scrollerRef, layerRef, factor, spacerHeight, scrollRowIntoView };
}
