import { hash, verify, type Algorithm } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane (~80 ms here).
// Algorithm is an ambient const enum (not usable under isolatedModules): 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** An argon2id hash of the password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * True when the password matches the hash. With no hash (unknown email) a dummy hash is
 * checked anyway so that the answer takes as long as for a real account.
 */
export async function verifyPassword(
  passwordHash: string | undefined,
  password: string,
): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('not-a-real-password-but-as-slow');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
