import { createDecipheriv, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretUnreadableError, openSecret, sealSecret } from './secrets.ts';

const KEY = 'Zt4-Wq9rLm2xVb7nKc5pHs8dJf3gYe6aQu1';
const USER = '3f1c9a52-6d0e-4c1b-9b7a-2e5d8f4a1c60';
const OTHER_USER = '8a2b7c1d-0e9f-4a3b-8c5d-6e7f8a9b0c1d';
const TOKEN = '1//0gExampleRefreshToken-abc_DEF';

/** Flips one bit of the base64url part `index` (1 iv, 2 tag, 3 ciphertext) of a sealed value. */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secrets at rest', () => {
  it('seals as v1.<iv>.<tag>.<ciphertext> with a fresh 12-byte IV, and opens for the same user', () => {
    const sealed = sealSecret(KEY, TOKEN, USER);
    const [version, iv, tag, ciphertext] = sealed.split('.');
    expect(version).toBe('v1');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext!, 'base64url')).toHaveLength(Buffer.byteLength(TOKEN));
    expect(sealed).not.toContain(TOKEN);
    expect(openSecret(KEY, sealed, USER)).toBe(TOKEN);
    // The same token sealed twice differs (a new IV each time); both open.
    const again = sealSecret(KEY, TOKEN, USER);
    expect(again.split('.')[1]).not.toBe(iv);
    expect(again).not.toBe(sealed);
    expect(openSecret(KEY, again, USER)).toBe(TOKEN);
  });

  it('is AES-256-GCM under the HKDF-SHA256 key of the secret, with the user id as associated data', () => {
    const sealed = sealSecret(KEY, TOKEN, USER);
    const [, iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const key = Buffer.from(
      hkdfSync('sha256', KEY, 'adloom secrets at rest', 'aes-256-gcm v1', 32),
    );
    const decipher = createDecipheriv('aes-256-gcm', key, iv!);
    decipher.setAAD(Buffer.from(USER));
    decipher.setAuthTag(tag!);
    expect(Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString()).toBe(TOKEN);
  });

  it('does not open for another user, with another key, or once changed', () => {
    const sealed = sealSecret(KEY, TOKEN, USER);
    expect(() => openSecret(KEY, sealed, OTHER_USER)).toThrow(SecretUnreadableError);
    expect(() => openSecret(`${KEY}-rotated`, sealed, USER)).toThrow(SecretUnreadableError);
    for (const part of [1, 2, 3])
      expect(() => openSecret(KEY, flipBit(sealed, part), USER)).toThrow(SecretUnreadableError);
    expect(() => openSecret(KEY, sealed.replace(/^v1/, 'v2'), USER)).toThrow(SecretUnreadableError);
    expect(() => openSecret(KEY, sealed.split('.').slice(0, 3).join('.'), USER)).toThrow(
      SecretUnreadableError,
    );
    expect(() => openSecret(KEY, TOKEN, USER)).toThrow(SecretUnreadableError);
  });

  it('refuses to seal or open without a key', () => {
    expect(() => sealSecret('', TOKEN, USER)).toThrow(/No TOKEN_ENCRYPTION_KEY/);
  });
});
