// Backups of the embedded database's DATA_DIR: made by the running server on request (through
// a Unix socket in DATA_DIR that only the folder's owner can reach), or by the command itself
// when no server runs; restored only while no server holds the folder.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import { join, relative } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { JWT_SECRET_FILE, TOKEN_KEY_FILE } from '../config.ts';
import { openPglite, type Db } from '../db/index.ts';

/** The socket a running server answers backup requests on, in DATA_DIR (0700). */
export const BACKUP_SOCKET_NAME = 'backup.sock';
/** The embedded database's folder in DATA_DIR. */
export const PGLITE_DIR_NAME = 'pglite';

const MANIFEST = 'adloom-backup.json';
const DATABASE_ENTRY = 'pglite.tar.gz';
const SECRETS_FOLDER = 'secrets/';
const FORMAT = 'adloom-backup';
const VERSION = 1;
/**
 * The secrets a server keeps in DATA_DIR when they are not set in the environment: sessions are
 * signed and Google refresh tokens sealed with them, so a restored database needs them back.
 */
const SECRET_FILES = [JWT_SECRET_FILE, TOKEN_KEY_FILE];
// A Unix socket path holds at most 107 bytes on Linux (103 on macOS).
const SOCKET_PATH_MAX_BYTES = 103;

/** What a backup file says of itself. */
interface BackupManifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** The migrations applied to the database when it was copied. */
  migrations: string[];
}

/** A file that is not an Adloom backup, or one this version cannot read. */
class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/**
 * A whole backup of an embedded database: one zip with a manifest, PGlite's tarball of its data
 * folder, and the secrets kept beside it in DATA_DIR.
 */
export async function makeBackup(db: Db, dataDir: string): Promise<Uint8Array> {
  if (!db.dumpDataDir) throw new Error('only the embedded database is backed up this way');
  const migrations = await db.query<{ name: string }>(
    'select name from schema_migrations order by name',
  );
  const dump = new Uint8Array(await (await db.dumpDataDir()).arrayBuffer());
  const manifest: BackupManifest = {
    format: FORMAT,
    version: VERSION,
    createdAt: new Date().toISOString(),
    migrations: migrations.map((row) => row.name),
  };
  const entries: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {
    [MANIFEST]: strToU8(JSON.stringify(manifest, null, 2)),
    // Already gzipped.
    [DATABASE_ENTRY]: [dump, { level: 0 }],
  };
  for (const name of SECRET_FILES) {
    const file = join(dataDir, name);
    if (existsSync(file)) entries[`${SECRETS_FOLDER}${name}`] = readFileSync(file);
  }
  return zipSync(entries);
}

/** Reads a backup file's entries, checking it is one. */
function readBackup(bytes: Uint8Array): {
  manifest: BackupManifest;
  database: Uint8Array;
  secrets: Map<string, Uint8Array>;
} {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch {
    throw new BackupFileError('this is not an Adloom backup (not a zip file)');
  }
  const manifestBytes = entries[MANIFEST];
  const database = entries[DATABASE_ENTRY];
  if (!manifestBytes || !database)
    throw new BackupFileError(`this is not an Adloom backup (no ${MANIFEST} or ${DATABASE_ENTRY})`);
  const manifest = JSON.parse(strFromU8(manifestBytes)) as BackupManifest;
  if (manifest.format !== FORMAT || manifest.version !== VERSION)
    throw new BackupFileError(
      `this backup's format (${String(manifest.format)} ${String(manifest.version)}) is not ${FORMAT} ${VERSION}`,
    );
  const secrets = new Map<string, Uint8Array>();
  for (const name of SECRET_FILES) {
    const secret = entries[`${SECRETS_FOLDER}${name}`];
    if (secret) secrets.set(name, secret);
  }
  return { manifest, database, secrets };
}

/** Writes `bytes` to `file` (0600: a backup holds password hashes) whole or not at all. */
export function writeFileWhole(file: string, bytes: Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, bytes, { mode: 0o600 });
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Puts a backup's database and secrets in DATA_DIR. The caller holds DATA_DIR's lock (no server
 * runs). The backup is unpacked and opened in a folder of its own first; only then is the
 * current data moved aside, into the returned folder, and the restored data put in its place.
 */
export async function restoreBackup(dataDir: string, bytes: Uint8Array): Promise<string> {
  const backup = readBackup(bytes);
  const incoming = join(dataDir, `${PGLITE_DIR_NAME}.restoring-${process.pid}`);
  rmSync(incoming, { recursive: true, force: true });
  try {
    const pglite = await openPglite({
      dataDir: incoming,
      loadDataDir: new Blob([backup.database]),
    });
    try {
      // The copy opens and reads: it is a database, not just a tarball.
      await pglite.query('select count(*) from schema_migrations');
    } finally {
      await pglite.close();
    }
  } catch (error) {
    rmSync(incoming, { recursive: true, force: true });
    throw error;
  }
  const keptDir = join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(keptDir, { recursive: true });
  const moveAside = (name: string) => {
    if (existsSync(join(dataDir, name))) renameSync(join(dataDir, name), join(keptDir, name));
  };
  for (const [name, secret] of backup.secrets) {
    moveAside(name);
    writeFileWhole(join(dataDir, name), secret);
  }
  moveAside(PGLITE_DIR_NAME);
  renameSync(incoming, join(dataDir, PGLITE_DIR_NAME));
  return keptDir;
}

/** The socket's path as short as it can be said from here (absolute, or relative to the cwd). */
function socketPath(dataDir: string): string {
  const absolute = join(dataDir, BACKUP_SOCKET_NAME);
  const nearby = relative(process.cwd(), absolute);
  const path = nearby.length < absolute.length ? nearby : absolute;
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX_BYTES)
    throw new Error(`the path ${absolute} is too long for a Unix socket`);
  return path;
}

/**
 * Answers `GET /backup` with a backup, on DATA_DIR's socket. Only DATA_DIR's owner can connect
 * (the folder is 0700, the socket 0600), and no proxy or other host reaches it: the file
 * permissions are the authorisation. Returns the function that closes it and removes the socket.
 */
export async function serveBackups(
  dataDir: string,
  db: Db,
  log: { error(fields: object, message: string): void },
): Promise<() => void> {
  const path = socketPath(dataDir);
  // Left by a server that was killed: this process holds DATA_DIR's lock now.
  rmSync(path, { force: true });
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    makeBackup(db, dataDir).then(
      (bytes) => {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': bytes.length });
        res.end(bytes);
      },
      (error: unknown) => {
        log.error({ err: error }, 'backup failed');
        res.writeHead(500).end(error instanceof Error ? error.message : 'backup failed');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  // Does not keep the process alive; the server's own shutdown ends it.
  server.unref();
  return () => {
    server.close();
    rmSync(path, { force: true });
  };
}

/** Asks the server running on DATA_DIR for a backup. */
export async function requestBackup(dataDir: string): Promise<Uint8Array> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request({ socketPath: socketPath(dataDir), path: '/backup' }, resolve)
      .once('error', reject)
      .end();
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (response.statusCode !== 200)
    throw new Error(`the server answered ${response.statusCode}: ${body.toString('utf8')}`);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}
