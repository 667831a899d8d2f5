import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { longestPackedCell, type PackedTable } from '../generation/packTable.ts';

/**
 * Lines a row of a wrapping table needs for the longest text of its last column to show whole,
 * at the width that column has now (at least 1). The text is laid out in `probeRef`, an
 * unseen cell, as wide as the last column's header (`lastHeaderRef`), once per table and width.
 * `enabled` false: 1, nothing measured.
 */
export function useFittedRowLines(table: PackedTable | null, lineHeight: number, enabled: boolean) {
  const lastHeaderRef = useRef<HTMLSpanElement>(null);
  const probeRef = useRef<HTMLSpanElement>(null);
  const [lines, setLines] = useState(1);
  const longest = useMemo(
    () => (enabled && table ? longestPackedCell(table, table.headers.length - 1) : ''),
    [enabled, table],
  );

  useLayoutEffect(() => {
    const header = lastHeaderRef.current;
    const probe = probeRef.current;
    if (!header || !probe) {
      setLines(1);
      return undefined;
    }
    const measure = () => {
      probe.style.width = `${header.getBoundingClientRect().width}px`;
      setLines(Math.max(1, Math.ceil(probe.scrollHeight / lineHeight)));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    return () => observer.disconnect();
  }, [longest, lineHeight]);

  return { lines, longest, lastHeaderRef, probeRef };
}
