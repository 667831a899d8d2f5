// Whether a build is older than what it is made from: shared by `npm start`'s web build step
// (build-web.mjs), the server's and the `adloom` command's build scripts.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const TEST_FILE = /\.test\.tsx?$/;

/** Newest modification time (ms) of the files at or below `paths` (tests left out; 0 if none). */
function newestSourceTime(paths) {
  let newest = 0;
  const visit = (file) => {
    if (!existsSync(file)) return;
    const info = statSync(file);
    if (info.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!TEST_FILE.test(file)) {
      newest = Math.max(newest, info.mtimeMs);
    }
  };
  for (const file of paths) visit(file);
  return newest;
}

/** True when `built` is missing or older than a file at or below `sources`. */
export function isOlderThanSources(built, sources) {
  return !existsSync(built) || statSync(built).mtimeMs < newestSourceTime(sources);
}
