import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from '../errors.ts';
import type { Db } from '../db/index.ts';
import { findSessionUser } from '../db/users.ts';

/** The signed-in user of a request, and the session (token) it came with. */
export interface AuthUser {
  id: string;
  email: string;
  /** Whether the account's address is verified (the tools it grants wait until it is). */
  isEmailVerified: boolean;
  session: {
    /** The token's id (`jti`): what Log Out records as revoked. */
    id: string;
    /** When the token expires; a revocation is kept until then. */
    expiresAt: Date;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
  interface FastifyInstance {
    /** Installed by buildApp. */
    sessions: SessionService;
  }
}

/** Signs and checks session tokens (HS256) and resolves them to users. */
export interface SessionService {
  /** A token for the user, valid for `expiresIn` seconds. */
  issue(user: {
    id: string;
    email: string;
    sessionVersion: number;
  }): Promise<{ token: string; expiresIn: number }>;
  /** The user a token belongs to; throws AppError('unauthorized') when it is missing, invalid, expired or revoked. */
  verify(token: string | undefined): Promise<AuthUser>;
}

const ISSUER = 'adloom';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The 401 message of a missing, invalid or revoked session. */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized. Please log in to continue';

/**
 * Creates the session service; `db` is used to reject tokens of deleted users, of old passwords
 * or of "log out everywhere" (the session version), and tokens that were logged out (their `jti`).
 */
export function createSessionService(options: {
  secret: string;
  ttlSeconds: number;
  db: Db;
}): SessionService {
  const key = new TextEncoder().encode(options.secret);
  return {
    async issue(user) {
      const token = await new SignJWT({ email: user.email, sv: user.sessionVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setJti(randomUUID())
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(key);
      return { token, expiresIn: options.ttlSeconds };
    },
    async verify(token) {
      if (!token) throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER }));
      } catch (error) {
        const message =
          error instanceof joseErrors.JWTExpired
            ? 'Your session has expired. Please log in again'
            : UNAUTHORIZED_MESSAGE;
        throw new AppError('unauthorized', message);
      }
      const { sub: id, jti, exp } = payload;
      // Tokens without an id predate Log Out ending them on the server: they are refused too.
      if (
        typeof id !== 'string' ||
        !UUID_PATTERN.test(id) ||
        typeof jti !== 'string' ||
        !UUID_PATTERN.test(jti) ||
        typeof exp !== 'number' ||
        typeof payload.sv !== 'number'
      ) {
        throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
      }
      const row = await findSessionUser(options.db, id, jti);
      if (!row || row.session_version !== payload.sv || row.is_revoked)
        throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
      return {
        id: row.id,
        email: row.email,
        isEmailVerified: row.is_email_verified,
        session: { id: jti, expiresAt: new Date(exp * 1000) },
      };
    },
  };
}

/** The token of a request: the `authorization` header, bare or as `Bearer <token>`. */
export function readToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const value = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(value);
  const token = (match ? match[1] : value)?.trim();
  return token ? token : undefined;
}

/** Fastify onRequest hook (before any body byte is read): sets `request.user` or answers 401. */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  request.user = await request.server.sessions.verify(readToken(request));
}

/**
 * Fastify onRequest hook of a call open to everyone that acts for the caller when signed in: a
 * request with a token gets `request.user` (or 401 when the token is refused), one without none.
 */
export async function authenticateIfSignedIn(
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<void> {
  const token = readToken(request);
  if (token) request.user = await request.server.sessions.verify(token);
}

/** The signed-in user; throws AppError('unauthorized') when the route did not authenticate. */
export function getUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
  return request.user;
}
