/**
 * The ArrayBuffers inside a result (typed arrays in objects and arrays, a few levels deep), so a
 * result is sent with its buffers moved rather than copied. Each buffer once; arrays are looked
 * into only for their first 64 items (big arrays of plain values hold no buffers worth a walk).
 */
export function collectTransferables(value: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const walk = (x: unknown, depth: number): void => {
    if (depth > 6 || x === null || typeof x !== 'object') return;
    if (ArrayBuffer.isView(x)) {
      if (x.buffer instanceof ArrayBuffer && x.buffer.byteLength > 0) found.add(x.buffer);
      return;
    }
    if (x instanceof ArrayBuffer) {
      found.add(x);
      return;
    }
    if (typeof Blob !== 'undefined' && x instanceof Blob) return;
    if (Array.isArray(x)) {
      const limit = Math.min(x.length, 64);
      for (let i = 0; i < limit; i += 1) walk(x[i], depth + 1);
      return;
    }
    for (const key of Object.keys(x)) walk((x as Record<string, unknown>)[key], depth + 1);
  };
  walk(value, 0);
  return [...found];
}
