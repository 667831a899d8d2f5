import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicConfigSchema } from '@adloom/contract';
import { startTestApp, type TestApp } from './helpers.ts';

const HELP_VIDEO = 'https://www.youtube-nocookie.com/embed/intro1?autoplay=1';
const OTHER_PLAYER = 'https://player.example.com:8443/v/7';
const LANDING_VIDEO = 'http://127.0.0.1:4999/landing.html';
const BOOKING = 'https://calendly.com/adloom/demo';

describe('GET /api/config: the configured frames', () => {
  let configured: TestApp;
  beforeAll(async () => {
    configured = await startTestApp({
      media: {
        helpVideoUrls: { intro: HELP_VIDEO, 'geo-feeds': OTHER_PLAYER },
        landingVideoUrl: LANDING_VIDEO,
        demoBookingUrl: BOOKING,
      },
    });
  });
  afterAll(async () => {
    await configured.close();
  });

  it('hands over the configured addresses and allows exactly their origins in frames', async () => {
    const response = await configured.request('GET', '/api/config');
    expect(response.status).toBe(200);
    expect(PublicConfigSchema.strict().parse(response.body).media).toEqual({
      helpVideoUrls: { intro: HELP_VIDEO, 'geo-feeds': OTHER_PLAYER },
      landingVideoUrl: LANDING_VIDEO,
      demoBookingUrl: BOOKING,
    });
    const policy = String(response.headers['content-security-policy']);
    const frameSrc = policy.split('; ').find((part) => part.startsWith('frame-src '));
    expect(frameSrc?.split(' ').slice(1).sort()).toEqual(
      [
        'http://127.0.0.1:4999',
        'https://calendly.com',
        'https://player.example.com:8443',
        'https://www.youtube-nocookie.com',
      ].sort(),
    );
    // Every answer carries the same policy, the web app's pages included.
    const page = await configured.request('GET', '/api/health');
    expect(page.headers['content-security-policy']).toBe(policy);
  });
});

describe('GET /api/config: the tag manager', () => {
  it('is off by default, and its hosts are then nowhere in the policy', async () => {
    const plain = await startTestApp();
    try {
      const response = await plain.request('GET', '/api/config');
      expect(PublicConfigSchema.strict().parse(response.body).tagManager).toEqual({
        enabled: false,
      });
      const policy = String(response.headers['content-security-policy']);
      expect(policy).not.toContain('googletagmanager');
      expect(policy).toContain("connect-src 'self';");
    } finally {
      await plain.close();
    }
  });

  it("hands over the container and allows Google's tag and Analytics hosts", async () => {
    const tagged = await startTestApp({
      tagManager: {
        enabled: true,
        id: 'GTM-AB12CD3',
        scriptUrl: 'https://www.googletagmanager.com/gtm.js',
      },
    });
    try {
      const response = await tagged.request('GET', '/api/config');
      expect(PublicConfigSchema.strict().parse(response.body).tagManager).toEqual({
        enabled: true,
        id: 'GTM-AB12CD3',
        scriptUrl: 'https://www.googletagmanager.com/gtm.js',
      });
      const parts = String(response.headers['content-security-policy']).split('; ');
      const directive = (name: string) =>
        parts
          .find((part) => part.startsWith(`${name} `))
          ?.split(' ')
          .slice(1) ?? [];
      expect(directive('script-src')).toEqual(["'self'", 'https://www.googletagmanager.com']);
      for (const name of ['img-src', 'connect-src'])
        expect(directive(name)).toEqual(
          expect.arrayContaining([
            'https://www.googletagmanager.com',
            'https://*.google-analytics.com',
            'https://*.analytics.google.com',
          ]),
        );
      expect(directive('frame-src')).toEqual(["'none'"]);
    } finally {
      await tagged.close();
    }
  });
});
