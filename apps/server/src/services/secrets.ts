/**
 * Secrets at rest (the Google refresh tokens): AES-256-GCM with a fresh 12-byte IV per secret and
 * the owner's user id as associated data, so a sealed value copied to another user's row does
 * not open. Stored as `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The AES key is derived
 * from the TOKEN_ENCRYPTION_KEY setting with HKDF-SHA256.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_SALT = 'adloom secrets at rest';
const KEY_INFO = 'aes-256-gcm v1';

/** A sealed value that does not open: another key, another user, or changed bytes. */
export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

let lastKey: { secret: string; key: Buffer } | undefined;

/** The AES-256 key of a TOKEN_ENCRYPTION_KEY secret (the last one derived is kept). */
function keyOf(secret: string): Buffer {
  if (!secret) throw new Error('No TOKEN_ENCRYPTION_KEY: secrets cannot be sealed or opened');
  if (lastKey?.secret !== secret)
    lastKey = { secret, key: Buffer.from(hkdfSync('sha256', secret, KEY_SALT, KEY_INFO, 32)) };
  return lastKey.key;
}

/** Seals `plain` for `userId` with the key derived from `secret`. */
export function sealSecret(secret: string, plain: string, userId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(userId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Opens a value sealed for `userId`; throws SecretUnreadableError when it does not open. */
export function openSecret(secret: string, sealed: string, userId: string): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION)
    throw new SecretUnreadableError('not a v1 sealed secret');
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES)
    throw new SecretUnreadableError('a sealed secret with a bad IV or tag length');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), iv!, {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(userId, 'utf8'));
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError(
      'a sealed secret did not open (another key, another user, or changed)',
    );
  }
}
