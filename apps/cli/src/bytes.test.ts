import { describe, expect, it } from 'vitest';
import { ByteBlocks, writeUtf8 } from './bytes.ts';

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

describe('ByteBlocks', () => {
  it('numbers the blocks it fills and the blocks it adopts in one list', () => {
    const store = new ByteBlocks(true);
    expect(store.reserve(10)).toBe(0);
    const adopted = Buffer.alloc(8);
    expect(store.adopt(adopted)).toBe(1);
    // The block being filled is still block 0 until it is full.
    expect(store.reserve(10)).toBe(0);
    store.used = store.current.length;
    expect(store.reserve(1)).toBe(2);
    expect(store.blocks[1]).toBe(adopted);
    expect(store.blocks[2]).toBe(store.current);
  });
});
