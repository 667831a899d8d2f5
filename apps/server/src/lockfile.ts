import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Thrown when another live server holds DATA_DIR. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Adloom server (pid ${pid}) is already using DATA_DIR ${dataDir}. ` +
        'Stop that server first, or start this one with a different DATA_DIR.',
    );
  }
}

/** What /proc/<pid>/stat says of a process. */
export interface ProcStat {
  /** R, S, D ... Z (zombie: dead, not yet reaped by its parent), X (dead). */
  state: string;
  /** PF_EXITING: killed and tearing down its memory, which takes a while for a large process. */
  isExiting: boolean;
  /** Start time in clock ticks after boot: with the pid it names one process. */
  startTime: string;
}

// include/linux/sched.h
const PF_EXITING = 0x4;

/** Reads /proc/<pid>/stat; undefined when it cannot (no such process, or no /proc: not Linux). */
export function readProcStat(pid: number | 'self'): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Field 3 is the state, field 9 the flags, field 22 the start time.
  const state = fields[0];
  const flags = Number(fields[6]);
  const startTime = fields[19];
  if (!state || !startTime || !Number.isFinite(flags)) return undefined;
  return { state, isExiting: (flags & PF_EXITING) !== 0, startTime };
}

function isSignalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the lock's holder still runs. On Linux /proc tells a killed process (exiting, a
 * zombie, dead) from a live one, and the start time the holder wrote tells it from a later process that
 * got the same pid; elsewhere kill(pid, 0) is all there is.
 */
export function isLockHolderAlive(pid: number, startTime: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const stat = readProcStat(pid);
  // No /proc, or a process /proc hides (hidepid): kill(pid, 0) decides.
  if (!stat) return isSignalable(pid);
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x' || stat.isExiting)
    return false;
  return startTime === undefined || stat.startTime === startTime;
}

/** The lock file's text: "<pid> <start time>" (the start time only where /proc has it). */
function formatLock(): string {
  const startTime = readProcStat('self')?.startTime;
  return startTime ? `${process.pid} ${startTime}\n` : `${process.pid}\n`;
}

/** Reads "<pid>" or "<pid> <start time>". */
export function parseLock(text: string): { pid: number; startTime: string | undefined } {
  const [pid = '', startTime] = text.trim().split(/\s+/);
  return {
    pid: /^\d+$/.test(pid) ? Number(pid) : Number.NaN,
    startTime: startTime && /^\d+$/.test(startTime) ? startTime : undefined,
  };
}

/**
 * Takes DATA_DIR/server.lock for this process (PGlite itself does not lock its folder).
 * A lock left by a dead process (a zombie included), by an earlier process whose pid was
 * reused, or by this very pid (a restarted container) is taken over. Returns the release function.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, formatLock());
      closeSync(fd);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        try {
          if (parseLock(readFileSync(file, 'utf8')).pid === process.pid)
            rmSync(file, { force: true });
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: ReturnType<typeof parseLock> = { pid: Number.NaN, startTime: undefined };
    try {
      holder = parseLock(readFileSync(file, 'utf8'));
    } catch {
      // Vanished or unreadable between the two calls: try again.
    }
    if (holder.pid !== process.pid && isLockHolderAlive(holder.pid, holder.startTime))
      throw new DataDirLockedError(dataDir, holder.pid);
    rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}`);
}
