import { GOOGLE_SHEETS_INTEGRATION } from '@adloom/contract';
import type { Db } from './index.ts';

/** A google_links row; `refresh_token` is sealed (services/secrets.ts), never the plain token. */
export interface GoogleLinkRow {
  user_id: string;
  refresh_token: string;
  status: 'linked' | 'needs_consent';
  scope: string;
  linked_at: Date;
}

/** A consumed consent state: its PKCE verifier, and whether it was still within its time. */
interface ConsumedOAuthState {
  code_verifier: string;
  is_fresh: boolean;
}

const ADD_INTEGRATION = `update users set
  integrations = case when integrations @> jsonb_build_array($2::text) then integrations
    else integrations || jsonb_build_array($2::text) end,
  updated_at = now()
  where id = $1`;

const REMOVE_INTEGRATION = `update users set
  integrations = (select coalesce(jsonb_agg(item), '[]'::jsonb)
    from jsonb_array_elements(integrations) item where item <> to_jsonb($2::text)),
  updated_at = now()
  where id = $1 and integrations @> jsonb_build_array($2::text)`;

/**
 * Stores a consent state of `userId` good for `ttlSeconds`. Drops every expired state and the
 * user's oldest beyond `keptPerUser`, so opening the consent page again and again stores little.
 */
export async function insertOAuthState(
  db: Db,
  input: {
    state: string;
    userId: string;
    codeVerifier: string;
    ttlSeconds: number;
    keptPerUser: number;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `delete from google_oauth_states where expires_at < now() or (user_id = $1 and state not in (
         select state from google_oauth_states where user_id = $1
         order by expires_at desc limit $2))`,
      [input.userId, input.keptPerUser - 1],
    );
    await tx.query(
      `insert into google_oauth_states (state, user_id, code_verifier, expires_at)
       values ($1, $2, $3, now() + make_interval(secs => $4))`,
      [input.state, input.userId, input.codeVerifier, input.ttlSeconds],
    );
  });
}

/**
 * Deletes the user's consent `state` and answers its verifier; undefined when the user has no
 * such state (another user's state is left alone).
 */
export async function consumeOAuthState(
  db: Db,
  input: { state: string; userId: string },
): Promise<ConsumedOAuthState | undefined> {
  const rows = await db.query<ConsumedOAuthState>(
    `delete from google_oauth_states where state = $1 and user_id = $2
     returning code_verifier, expires_at > now() as is_fresh`,
    [input.state, input.userId],
  );
  return rows[0];
}

/** The user's Google link, if any. */
export async function findGoogleLink(db: Db, userId: string): Promise<GoogleLinkRow | undefined> {
  const rows = await db.query<GoogleLinkRow>(
    'select user_id, refresh_token, status, scope, linked_at from google_links where user_id = $1',
    [userId],
  );
  return rows[0];
}

/** Stores (or replaces) the user's link as linked, and gives the user the integration. */
export async function saveGoogleLink(
  db: Db,
  input: { userId: string; sealedRefreshToken: string; scope: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into google_links (user_id, refresh_token, status, scope)
       values ($1, $2, 'linked', $3)
       on conflict (user_id) do update set refresh_token = excluded.refresh_token,
         status = 'linked', scope = excluded.scope, linked_at = now(), updated_at = now()`,
      [input.userId, input.sealedRefreshToken, input.scope],
    );
    await tx.query(ADD_INTEGRATION, [input.userId, GOOGLE_SHEETS_INTEGRATION]);
  });
}

/**
 * Marks the link holding the sealed token `refused` as needing consent again and takes the
 * integration away. A link replaced meanwhile (linked again) is left alone.
 */
export async function markNeedsConsent(
  db: Db,
  input: { userId: string; refused: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx.query(
      `update google_links set status = 'needs_consent', updated_at = now()
       where user_id = $1 and refresh_token = $2 returning user_id`,
      [input.userId, input.refused],
    );
    if (rows.length > 0)
      await tx.query(REMOVE_INTEGRATION, [input.userId, GOOGLE_SHEETS_INTEGRATION]);
  });
}

/** Deletes the user's link (if any) and takes the integration away. */
export async function deleteGoogleLink(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from google_links where user_id = $1', [userId]);
    await tx.query(REMOVE_INTEGRATION, [userId, GOOGLE_SHEETS_INTEGRATION]);
  });
}
