import { describe, expect, it } from 'vitest';
import {
  BUILD_META_HEADER_MAX_CHARS,
  BuildMetaSchema,
  LOOP_LABEL_MAX_CHARS,
  LOOP_LABEL_MESSAGES,
  LoopLabelSchema,
  buildRecordPath,
  buildsPath,
  decodeBuildMetaHeader,
  encodeBuildMetaHeader,
  latestBuildPath,
  loopSettingsPath,
  type BuildMeta,
} from './index.ts';

const META: BuildMeta = {
  feedName: 'Schuhe; Größen 👟',
  templateNames: ['Brand', 'Generic RSA'],
  templateCount: 2,
  label: 'adloom',
  counts: { campaign: 2, keyword: 1_000_000 },
};

describe('the adloom-build header', () => {
  it('carries any characters as ASCII and reads back the same description', () => {
    const header = encodeBuildMetaHeader(META);
    expect(header).toMatch(/^[\x21-\x7e]+$/);
    expect(BuildMetaSchema.parse(decodeBuildMetaHeader(header))).toEqual(META);
  });

  it('leaves template names off the end until it fits, keeping the count', () => {
    const names = Array.from(
      { length: 300 },
      (_, n) => `Vorlage ${n} für Größen ${'ü'.repeat(20)}`,
    );
    const header = encodeBuildMetaHeader({ ...META, templateNames: names, templateCount: 300 });
    expect(header.length).toBeLessThanOrEqual(BUILD_META_HEADER_MAX_CHARS);
    const decoded = BuildMetaSchema.parse(decodeBuildMetaHeader(header));
    expect(decoded.templateCount).toBe(300);
    expect(decoded.templateNames.length).toBeGreaterThan(0);
    expect(decoded.templateNames).toEqual(names.slice(0, decoded.templateNames.length));
    // One more name would not have fitted.
    const longer = encodeURIComponent(
      JSON.stringify({
        ...decoded,
        templateNames: names.slice(0, decoded.templateNames.length + 1),
      }),
    );
    expect(longer.length).toBeGreaterThan(BUILD_META_HEADER_MAX_CHARS);
  });

  it.each([['%E0%A4%A'], ['not json'], [encodeURIComponent('{"feedName":')]])(
    'reads %s as nothing',
    (value) => {
      expect(decodeBuildMetaHeader(value)).toBeUndefined();
    },
  );
});

describe('the loop label', () => {
  it.each([
    ['adloom', 'adloom'],
    ['  Adloom Q1  ', 'Adloom Q1'],
    ['x'.repeat(LOOP_LABEL_MAX_CHARS), 'x'.repeat(LOOP_LABEL_MAX_CHARS)],
    ['👟'.repeat(LOOP_LABEL_MAX_CHARS), '👟'.repeat(LOOP_LABEL_MAX_CHARS)],
  ])('takes %j', (label, expected) => {
    expect(LoopLabelSchema.parse(label)).toBe(expected);
  });

  it.each([
    ['', LOOP_LABEL_MESSAGES.empty],
    [' \u00a0 ', LOOP_LABEL_MESSAGES.empty],
    ['x'.repeat(LOOP_LABEL_MAX_CHARS + 1), LOOP_LABEL_MESSAGES.tooLong],
    ['adloom;feed', LOOP_LABEL_MESSAGES.separator],
    ['ad\u0000loom', LOOP_LABEL_MESSAGES.control],
    ['ad\u0085loom', LOOP_LABEL_MESSAGES.control],
  ])('refuses %j', (label, message) => {
    const result = LoopLabelSchema.safeParse(label);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('the client call paths', () => {
  it('put the ids in the route patterns', () => {
    const id = '0b6f1c2e-1111-4222-8333-944455556666';
    expect(buildsPath(id)).toBe(`/api/clients/${id}/builds`);
    expect(latestBuildPath(id)).toBe(`/api/clients/${id}/builds/latest`);
    expect(buildRecordPath(id, 'b')).toBe(`/api/clients/${id}/builds/b/record`);
    expect(loopSettingsPath('a/b')).toBe('/api/clients/a%2Fb/loop-settings');
  });
});
