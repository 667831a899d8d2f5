import { describe, expect, it } from 'vitest';
import { FEED_URL_MAX_CHARS } from '@adloom/engine';
import {
  EMAIL_PATTERN,
  ErrorBodySchema,
  FEED_MAX_ROWS,
  FeedRowsSchema,
  CampaignTemplateInputSchema,
  FeedbackBodySchema,
  RegisterBodySchema,
  PerformanceMaxTemplateInputSchema,
  RsaTemplateInputSchema,
  SaveFeedsBodySchema,
  clientPath,
  resetPath,
  statusForCode,
} from './index.ts';

describe('EMAIL_PATTERN (spec section 5: local part, @, domain with a dot and a 2+ letter suffix, or an IP literal)', () => {
  it.each([
    ['ana@agency.com', true],
    ['first.last@sub.agency.co.uk', true],
    ['ana@[192.168.0.1]', true],
    ['ana@agency.c', false],
    ['ana@agency', false],
    ['ana.agency.com', false],
    ['ana @agency.com', false],
    ['', false],
    ['ana..lee@agency.com', false],
    ['.ana@agency.com', false],
    // Exponential backtracking in an earlier pattern: this one never finished.
    [`${'a.'.repeat(40)}!`, false],
    [`${'a.'.repeat(40)}a@agency.com`, true],
  ])('%s -> %s', (email, ok) => {
    expect(EMAIL_PATTERN.test(email)).toBe(ok);
  });
});

describe('paths', () => {
  it('keeps any characters of a client name through URL encoding', () => {
    const name = 'Shoes / Boots & 100% #1 ?';
    const path = clientPath(name);
    expect(path.startsWith('/api/app/clients/')).toBe(true);
    expect(path).not.toContain(' ');
    expect(decodeURIComponent(path.slice('/api/app/clients/'.length))).toBe(name);
  });
  it('encodes reset tokens', () => {
    expect(resetPath('a/b')).toBe('/api/users/reset/a%2Fb');
  });
});

describe('error vocabulary', () => {
  it.each([
    ['validation_failed', 400],
    ['unauthorized', 401],
    ['not_found', 404],
    ['conflict', 409],
    ['payload_too_large', 413],
    ['rate_limited', 429],
    ['service_unavailable', 503],
    ['something_unknown', 500],
  ])('%s answers %i', (code, status) => {
    expect(statusForCode(code)).toBe(status);
  });
  it('accepts the one error shape and rejects a bare message', () => {
    expect(
      ErrorBodySchema.safeParse({ error: { code: 'not_found', message: 'No such client' } })
        .success,
    ).toBe(true);
    expect(ErrorBodySchema.safeParse({ message: 'oops' }).success).toBe(false);
  });
});

describe('feed rows (spec section 5: cells trimmed, at most 30 characters, URL kept whole)', () => {
  it('trims cells and drops the client-only selected flag', () => {
    const rows = FeedRowsSchema.parse([
      { id: 'r1', root: '  nike ', mod: 'shoes', url: ' https://x.example/ ', selected: true },
    ]);
    expect(rows).toEqual([
      {
        id: 'r1',
        root: 'nike',
        mod: 'shoes',
        var1: '',
        var2: '',
        var3: '',
        url: 'https://x.example/',
        status: '',
      },
    ]);
  });
  it('keeps a row status trimmed, at most 30 characters', () => {
    const rows = FeedRowsSchema.parse([
      { root: 'a', status: ' paused ' },
      { status: 'out of stock' },
    ]);
    expect(rows.map((row) => row.status)).toEqual(['paused', 'out of stock']);
    const result = FeedRowsSchema.safeParse([{ status: 'p'.repeat(31) }]);
    expect(result.error?.issues[0]?.path).toEqual([0, 'status']);
    expect(FeedRowsSchema.safeParse([{ status: 1 }]).success).toBe(false);
  });
  it('accepts exactly 30 characters and refuses 31, naming the row and column', () => {
    expect(FeedRowsSchema.safeParse([{ root: 'x'.repeat(30) }]).success).toBe(true);
    const result = FeedRowsSchema.safeParse([{ root: 'ok' }, { var2: 'y'.repeat(31) }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([1, 'var2']);
  });
  it('keeps a URL longer than Google takes (the engine reports it) and refuses one past the stored bound', () => {
    // Issue 36: a feed keeps a too-long URL whole (readers never cut one), so a save holds it.
    expect(FeedRowsSchema.safeParse([{ url: 'u'.repeat(2049) }]).success).toBe(true);
    expect(FeedRowsSchema.safeParse([{ url: 'u'.repeat(FEED_URL_MAX_CHARS) }]).success).toBe(true);
    expect(FeedRowsSchema.safeParse([{ url: 'u'.repeat(FEED_URL_MAX_CHARS + 1) }]).success).toBe(
      false,
    );
  });
  it('refuses a number where text belongs, and a row that is not an object', () => {
    expect(FeedRowsSchema.safeParse([{ root: 5 }]).success).toBe(false);
    expect(FeedRowsSchema.safeParse(['nike']).success).toBe(false);
  });
  it(`caps a feed at ${FEED_MAX_ROWS} rows`, () => {
    expect(FeedRowsSchema.safeParse(new Array(FEED_MAX_ROWS + 1).fill({})).success).toBe(false);
  });
  it('names the field of a bad feed in a save body', () => {
    const result = SaveFeedsBodySchema.safeParse({
      name: 'Client',
      feeds: [{ name: '', dataType: 'table', sheetUrl: '', rows: [] }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('feeds.0.name');
  });
});

describe('templates', () => {
  it('restores legacy plain-string headlines to unpinned texts', () => {
    const t = RsaTemplateInputSchema.parse({
      name: 'Old',
      templates: [{ headlines: ['Buy {root}'], descriptions: [], paths: ['', ''], labels: [] }],
    });
    expect(t.templates[0]?.headlines[0]).toEqual({ text: 'Buy {root}', pos: 0 });
  });
  it('keeps the campaign setting that drops negatives blocking their own keywords (off when missing)', () => {
    const t = CampaignTemplateInputSchema.parse({
      name: 'C',
      settings: { dropBlockingNegatives: true },
    });
    expect(t.settings.dropBlockingNegatives).toBe(true);
    expect(CampaignTemplateInputSchema.parse({ name: 'C' }).settings.dropBlockingNegatives).toBe(
      false,
    );
    expect(
      CampaignTemplateInputSchema.safeParse({ name: 'C', settings: { dropBlockingNegatives: 'x' } })
        .success,
    ).toBe(false);
  });
  it('refuses a 16th headline', () => {
    const headlines = Array.from({ length: 16 }, (_, i) => ({ text: `h${i}`, pos: 0 }));
    expect(
      RsaTemplateInputSchema.safeParse({ name: 'Too many', templates: [{ headlines }] }).success,
    ).toBe(false);
  });
  it('takes Performance Max templates of up to 15 headlines (Google’s count)', () => {
    const headlines = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ text: `h${i}`, pos: 0 }));
    const parse = (n: number) =>
      PerformanceMaxTemplateInputSchema.safeParse({
        name: 'P',
        templates: [{ headlines: headlines(n) }],
      }).success;
    expect(parse(15)).toBe(true);
    expect(parse(16)).toBe(false);
  });
});

describe('account payloads', () => {
  it('register needs a valid email and a 6-character password', () => {
    expect(
      RegisterBodySchema.safeParse({
        email: 'ana@agency.com',
        password: 'secret1',
        'password-confirm': 'secret1',
      }).success,
    ).toBe(true);
    expect(
      RegisterBodySchema.safeParse({
        email: 'ana',
        password: 'secret1',
        'password-confirm': 'secret1',
      }).success,
    ).toBe(false);
    expect(
      RegisterBodySchema.safeParse({
        email: 'ana@agency.com',
        password: '12345',
        'password-confirm': '12345',
      }).success,
    ).toBe(false);
  });
  it('feedback is Issue, Idea or Other with at least 10 characters', () => {
    expect(FeedbackBodySchema.safeParse({ type: 'Idea', message: 'Add Bing export' }).success).toBe(
      true,
    );
    expect(FeedbackBodySchema.safeParse({ type: 'Idea', message: 'too short' }).success).toBe(
      false,
    );
    expect(
      FeedbackBodySchema.safeParse({ type: 'Rant', message: 'long enough message' }).success,
    ).toBe(false);
  });
});
