import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What must never appear in a log line, by name. The secret itself is never reported. */
export const LOG_SECRET_PATTERNS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an argon2 password hash ($argon2…)', pattern: /\$argon2(?:id|i|d)?\$/ },
  {
    name: 'a JWT (eyJ….eyJ…)',
    pattern: /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.?[A-Za-z0-9_-]*/,
  },
  {
    name: 'a reset link or path with its token (/reset/<token>)',
    pattern: /\/reset\/[A-Za-z0-9_-]{20,}/,
  },
  {
    name: 'an address verification link or path with its token (/verify-email/<token>)',
    pattern: /\/verify-email\/[A-Za-z0-9_-]{20,}/,
  },
  // Google's token shapes (the stand-in hands out the same): access 'ya29.…', refresh '1//…'.
  { name: 'a Google access token (ya29.…)', pattern: /ya29\.[A-Za-z0-9_-]{10,}/ },
  {
    name: 'a Google refresh token (1//…)',
    pattern: /(?<![A-Za-z0-9])1\/\/[A-Za-z0-9_-]{10,}/,
  },
  // The password every signUp account of the server tests gets (test/helpers.ts TEST_PASSWORD).
  { name: 'the test password', pattern: /correct horse battery/ },
];

/** One secret found in a log: which file, which line, which kind. */
export interface LogSecretFinding {
  file: string;
  line: number;
  kind: string;
}

/** Scans every line of `text` (a log named `file`). */
export function findSecretsInLog(file: string, text: string): LogSecretFinding[] {
  const findings: LogSecretFinding[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { name, pattern } of LOG_SECRET_PATTERNS)
      if (pattern.test(line)) findings.push({ file, line: index + 1, kind: name });
  });
  return findings;
}

/** Scans every file in `dir` (not recursive). */
export function findSecretsInLogDir(dir: string): { files: number; findings: LogSecretFinding[] } {
  const names = readdirSync(dir);
  const findings = names.flatMap((name) =>
    findSecretsInLog(join(dir, name), readFileSync(join(dir, name), 'utf8')),
  );
  return { files: names.length, findings };
}

/** A report of findings that names files, lines and kinds, never the secrets. */
export function describeLogFindings(findings: readonly LogSecretFinding[]): string {
  const shown = findings
    .slice(0, 50)
    .map((finding) => `  ${finding.file}:${finding.line}: ${finding.kind}`);
  const more = findings.length > 50 ? [`  … and ${findings.length - 50} more`] : [];
  return [`${findings.length} log lines hold secrets:`, ...shown, ...more].join('\n');
}
