import type { Tutorial } from '@adloom/contract';
import type { Db } from './index.ts';

/** A users row. */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  role: string;
  integrations: string[];
  tutorial: Tutorial;
  session_version: number;
  /** Whether the address was verified through a mailed link (and has not changed since). */
  email_verified: boolean;
}

const USER_COLUMNS =
  'id, email, password_hash, role, integrations, tutorial, session_version, email_verified_at is not null as email_verified';

/** Emails are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user with this email, if any. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users where email = $1`, [
    normalizeEmail(email),
  ]);
  return rows[0];
}

/** What a session token is checked against: the user, their session version, and whether this token was logged out. */
interface SessionUserRow {
  id: string;
  email: string;
  session_version: number;
  is_revoked: boolean;
  is_email_verified: boolean;
}

/**
 * The user a token names and whether the token (`jti`) was logged out, in one round trip: every
 * authenticated request runs this. The revocation is matched to the same user.
 */
export async function findSessionUser(
  db: Db,
  id: string,
  jti: string,
): Promise<SessionUserRow | undefined> {
  const rows = await db.query<SessionUserRow>(
    `select u.id, u.email, u.session_version, u.email_verified_at is not null as is_email_verified,
       exists (select 1 from revoked_sessions r where r.jti = $2 and r.user_id = u.id) as is_revoked
     from users u where u.id = $1`,
    [id, jti],
  );
  return rows[0];
}

/**
 * Revocations are pruned this long after their token's expiry, so a clock of the app ahead of the
 * database's cannot let a logged-out token work again in its last seconds.
 */
export const REVOCATION_PRUNE_GRACE_SECONDS = 300;

/**
 * Records the user's own token `jti` as logged out until `expiresAt` (the token's expiry), and
 * prunes revocations whose tokens have expired (of every user: they no longer refuse anything).
 */
export async function revokeSession(
  db: Db,
  input: { userId: string; jti: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    `insert into revoked_sessions (jti, user_id, expires_at)
     select $1::uuid, u.id, $3::timestamptz from users u where u.id = $2
     on conflict (jti) do nothing`,
    [input.jti, input.userId, input.expiresAt],
  );
  await pruneExpiredRevocations(db);
}

/** Deletes revocations whose tokens expired more than the grace period ago. */
async function pruneExpiredRevocations(db: Db): Promise<void> {
  await db.query(
    `delete from revoked_sessions where expires_at < now() - make_interval(secs => $1)`,
    [REVOCATION_PRUNE_GRACE_SECONDS],
  );
}

/**
 * Ends every session of the user (log out everywhere): bumps the session version, which every
 * token carries, and drops the user's revocations, which the bump makes moot.
 */
export async function revokeAllSessions(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      'update users set session_version = session_version + 1, updated_at = now() where id = $1',
      [userId],
    );
    await tx.query('delete from revoked_sessions where user_id = $1', [userId]);
  });
}

/** The user with this id, if any. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
  return rows[0];
}

/** Inserts a user; returns undefined when the email is taken. */
export async function insertUser(
  db: Db,
  input: { email: string; passwordHash: string },
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `insert into users (email, password_hash) values ($1, $2) on conflict (email) do nothing returning ${USER_COLUMNS}`,
    [normalizeEmail(input.email), input.passwordHash],
  );
  return rows[0];
}

/** Sets a new password hash and revokes every session signed before. */
export async function updatePassword(
  db: Db,
  userId: string,
  passwordHash: string,
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `update users set password_hash = $2, session_version = session_version + 1, updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [userId, passwordHash],
  );
  return rows[0];
}

/** Replaces the user's tutorial state. */
export async function updateTutorial(
  db: Db,
  userId: string,
  tutorial: Tutorial,
): Promise<Tutorial> {
  const rows = await db.query<{ tutorial: Tutorial }>(
    'update users set tutorial = $2, updated_at = now() where id = $1 returning tutorial',
    [userId, tutorial],
  );
  const row = rows[0];
  if (!row) throw new Error(`user ${userId} vanished`);
  return row.tutorial;
}

/** Deletes the user; every table holding their data cascades. */
export async function deleteUser(db: Db, userId: string): Promise<boolean> {
  const rows = await db.query('delete from users where id = $1 returning id', [userId]);
  return rows.length > 0;
}

/** Stores the sha256 of a new reset token and drops the user's older ones. */
export async function insertResetToken(
  db: Db,
  input: { userId: string; tokenHash: string; ttlSeconds: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from password_reset_tokens where user_id = $1', [input.userId]);
    await tx.query(
      `insert into password_reset_tokens (token_hash, user_id, expires_at) values ($1, $2, now() + make_interval(secs => $3))`,
      [input.tokenHash, input.userId, input.ttlSeconds],
    );
  });
}

/** The user id of a usable (unused, unexpired) reset token. */
export async function findUsableResetToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const rows = await db.query<{ user_id: string }>(
    'select user_id from password_reset_tokens where token_hash = $1 and used_at is null and expires_at > now()',
    [tokenHash],
  );
  return rows[0]?.user_id;
}

/** Marks a usable reset token used, atomically; returns its user id, or undefined if it was not usable. */
export async function consumeResetToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const rows = await db.query<{ user_id: string }>(
    'update password_reset_tokens set used_at = now() where token_hash = $1 and used_at is null and expires_at > now() returning user_id',
    [tokenHash],
  );
  return rows[0]?.user_id;
}

/** Deletes the user's reset tokens other than the one being used. */
export async function deleteOtherResetTokens(
  db: Db,
  userId: string,
  keptTokenHash: string,
): Promise<void> {
  await db.query('delete from password_reset_tokens where user_id = $1 and token_hash <> $2', [
    userId,
    keptTokenHash,
  ]);
}

/** The SQLSTATE of a unique violation (a taken email). */
const UNIQUE_VIOLATION = '23505';

/**
 * Gives the user a new address, unverified, and drops the links mailed to the old one (reset and
 * verification). Returns undefined when another account has the address.
 */
export async function updateEmail(
  db: Db,
  userId: string,
  email: string,
): Promise<UserRow | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx.query<UserRow>(
        `update users set email = $2, email_verified_at = null, updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
        [userId, normalizeEmail(email)],
      );
      await tx.query('delete from email_verification_tokens where user_id = $1', [userId]);
      await tx.query('delete from password_reset_tokens where user_id = $1', [userId]);
      return rows[0];
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return undefined;
    throw error;
  }
}

/** Stores the sha256 of a new verification token for `email` and drops the user's older ones. */
export async function insertVerificationToken(
  db: Db,
  input: { userId: string; email: string; tokenHash: string; ttlSeconds: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from email_verification_tokens where user_id = $1', [input.userId]);
    await tx.query(
      `insert into email_verification_tokens (token_hash, user_id, email, expires_at)
       values ($1, $2, $3, now() + make_interval(secs => $4))`,
      [input.tokenHash, input.userId, input.email, input.ttlSeconds],
    );
  });
}

/**
 * Uses a verification token: when it is unused, unexpired, of `userId` (when given: the signed-in
 * caller) and its address is still the account's, marks it used and the address verified, in one
 * statement. Returns the verified user's id, or undefined (nothing changed).
 */
export async function consumeVerificationToken(
  db: Db,
  tokenHash: string,
  userId: string | undefined,
): Promise<string | undefined> {
  const rows = await db.query<{ user_id: string }>(
    `with used as (
         update email_verification_tokens t set used_at = now()
         from users u
         where t.token_hash = $1 and t.used_at is null and t.expires_at > now()
           and u.id = t.user_id and u.email = t.email
           and ($2::uuid is null or t.user_id = $2::uuid)
         returning t.user_id
       )
       update users set email_verified_at = now(), updated_at = now()
       where id = (select user_id from used) returning id as user_id`,
    [tokenHash, userId ?? null],
  );
  return rows[0]?.user_id;
}
