import { describe, expect, it } from 'vitest';
import { writeUtf8 } from './bytes.ts';

describe('writeUtf8', () => {
  it('writes the UTF-8 bytes Buffer.write writes, ASCII or not, into shared memory too', () => {
    const texts = [
      '',
      'nike running',
      'Café crème',
      'Straße 🏃 fast',
      'a\uD800b',
      '\uDE00x',
      '日本',
    ];
    for (const block of [Buffer.alloc(64), Buffer.from(new SharedArrayBuffer(64))])
      for (const text of texts) {
        const end = writeUtf8(block, 3, text);
        expect(block.subarray(3, end)).toEqual(Buffer.from(text, 'utf8'));
      }
  });
});
