import { describe, expect, it } from 'vitest';
import { describeLogFindings, findSecretsInLog } from './log-scan.ts';

// The check that runs after the suite (test/global-setup.ts) must catch what it is meant to.
describe('the log secret scan', () => {
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
  const jwt =
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiaXNzIjoiYWRsb29tIn0.c2lnbmF0dXJlc2lnbmF0dXJl';
  const token = 'q8Vd1sW0kXn3mB5rT7yZ2aC4eG6iK9oP1uQ3wE5tY7u';

  it('finds hashes, JWTs and reset links, and names the line but not the secret', () => {
    const log = [
      '{"msg":"incoming request","req":{"url":"/api/users/reset/<token>"}}',
      `{"msg":"account created","probe":"${hash}"}`,
      `{"headers":{"authorization":"Bearer ${jwt}"}}`,
      `{"msg":"mail text: http://adloom.test/reset/${token}"}`,
      `{"req":{"url":"/api/users/reset/${token}"}}`,
      '{"msg":"SMTP_URL is not set: mail written to /data/outbox/2026-1.eml"}',
      `{"msg":"mail text: http://adloom.test/verify-email/${token}"}`,
      '{"req":{"url":"/api/users/verify-email/<token>"}}',
    ].join('\n');
    const findings = findSecretsInLog('server.log', log);
    expect(findings.map((finding) => [finding.line, finding.kind])).toEqual([
      [2, 'an argon2 password hash ($argon2…)'],
      [3, 'a JWT (eyJ….eyJ…)'],
      [4, 'a reset link or path with its token (/reset/<token>)'],
      [5, 'a reset link or path with its token (/reset/<token>)'],
      [7, 'an address verification link or path with its token (/verify-email/<token>)'],
    ]);
    const report = describeLogFindings(findings);
    expect(report).toContain('server.log:2: an argon2 password hash');
    expect(report).not.toContain(hash);
    expect(report).not.toContain(jwt);
    expect(report).not.toContain(token);
  });

  it("finds Google's access and refresh tokens, not addresses", () => {
    const access = 'ya29.a0AfB_byC3dE4fG5hI6jK7lM8nO9pQ0rS';
    const refresh = '1//0gLmN2oP3qR4sT5uV6wX7yZ8-refresh_token';
    const log = [
      `{"msg":"sheets call","authorization":"Bearer ${access}"}`,
      `{"msg":"token form","body":"grant_type=refresh_token&refresh_token=${refresh}"}`,
      `{"msg":"refresh","token":"${refresh}"}`,
      '{"msg":"google token refresh failed","url":"https://oauth2.googleapis.com/token"}',
      '{"msg":"stand-in at http://127.0.0.1:41231/v4/spreadsheets/abc"}',
    ].join('\n');
    const findings = findSecretsInLog('server.log', log);
    expect(findings.map((finding) => [finding.line, finding.kind])).toEqual([
      [1, 'a Google access token (ya29.…)'],
      [2, 'a Google refresh token (1//…)'],
      [3, 'a Google refresh token (1//…)'],
    ]);
    const report = describeLogFindings(findings);
    expect(report).not.toContain(access);
    expect(report).not.toContain(refresh);
  });
});
