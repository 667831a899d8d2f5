/**
 * Issue 36's randomised check: random feeds full of the audit's traps (bad and long URLs,
 * invisible characters, decomposed accents, full-width "!", keyword insertions, damaged location
 * IDs, many rows in one ad group) go through a whole run, and every written cell is checked
 * against the rules: no final URL Google refuses, no invisible character in a name, every text
 * in NFC, no "!" in any form in a headline, link text or callout, no keyword insertion in
 * Performance Max, plain location IDs only, at most 20 assets of a type in a place and each link
 * or callout text once.
 */
import { describe, expect, it } from 'vitest';
import { pick, random } from '../test/helpers/random.ts';
import { generateBuild } from './build.ts';
import {
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
} from './restore.ts';
import type { FeedRow } from './types.ts';

/** The URLs Google takes come first: every other one breaks a rule. */
const GOOD_URLS = [
  'https://www.shoes.example/a',
  'https://www.shoes.example/café',
  'http://shop.example.co.uk/x?y=1#z',
];
const URLS = [
  ...GOOD_URLS,
  'https://www.sho es.example/a',
  'https://www.shoes.example/ni\u200bke',
  'https://user:pw@www.shoes.example/c',
  'http://localhost/d',
  'https://127.0.0.1/e',
  'https://intranet/f',
  'www.shoes.example/g',
  `https://www.shoes.example/${'p'.repeat(2100)}`,
  'https://www.shoes.example/\u200fx',
  '',
];
const VALUES = [
  'Nike',
  'Ni\u200bke',
  'Cafe\u0301',
  'Café',
  'Sale\uff01',
  'Big Sale!',
  'Air\u00ad Max',
  '\u200eRun',
  '{KeyWord:Shoes}',
  'Ｆｒｅｅ',
  'boots',
  '東京',
];
const LOCATIONS = ['2826', '2826.0', '1.00689E+06', 'abc', '00123', '1006886', '', '2840; 2826'];

function randomRows(next: () => number): FeedRow[] {
  const n = 1 + Math.floor(next() * 40);
  return Array.from({ length: n }, (_, i) => ({
    id: `r${i}`,
    root: next() < 0.5 ? pick(next, LOCATIONS) : pick(next, VALUES),
    mod: pick(next, VALUES),
    var1: pick(next, VALUES),
    var2: next() < 0.5 ? 'x' : pick(next, VALUES),
    var3: '',
    url: pick(next, URLS),
  }));
}

/** Texts Google takes without "!" (headlines, link texts, callouts), as NFKC reads them. */
function hasExclamation(text: string): boolean {
  return /[!\uff01\ufe57\ufe15]/.test(text);
}

const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;
const isNfc = (text: string): boolean => text === text.normalize('NFC');

describe('a whole run on random feeds with the audit traps (issue 36)', () => {
  it('writes no URL, name, text, location or asset that breaks the rules, 300 feeds', () => {
    let ads = 0;
    let assets = 0;
    let campaigns = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const isPerformance = next() < 0.3;
      const isLocation = next() < 0.4;
      const campaign = restoreCampaignTemplate({
        name: 'C',
        type: isPerformance ? 'performance' : 'search',
        campaign: pick(next, ['{var2}', '{mod} x', 'Shoes']),
        adGroup: pick(next, ['{var1}', '{mod} {var1}', 'All']),
        assetGroup: pick(next, ['{var1}', 'All']),
        keywords: [{ keyword: '{mod} {var1}', matchType: 'Broad', selected: true }],
        settings: {
          budget: { value: 5, selected: true },
          location: { value: '{root}', selected: !isLocation && next() < 0.5 },
          isLocationCampaign: isLocation,
          optionalSettings: [],
        },
      });
      const rsa = restoreRsaTemplate({
        name: 'R',
        templates: [
          {
            headlines: ['{mod}', 'Buy {var1}', pick(next, ['Sale\uff01', 'Great deals'])],
            descriptions: ['Shop {mod} today.', 'Fast delivery!'],
            paths: ['{var1}', ''],
          },
          { headlines: ['Shoes', 'Buy now', 'Great deals'], descriptions: ['Shop.', 'Fast.'] },
        ],
      });
      const pmax = restorePerformanceMaxTemplate({
        name: 'P',
        templates: [
          {
            headlines: ['{mod}', 'Buy {var1} now', pick(next, ['{KeyWord:Shoes}', 'Deals'])],
            longHeadlines: ['Shop {mod} and more'],
            descriptions: ['Shop {var1} today.', 'Fast.'],
            businessName: 'Shop',
          },
          {
            headlines: ['Shoes', 'Buy now', 'Deals'],
            longHeadlines: ['Shop shoes'],
            descriptions: ['Shop today.', 'Fast.'],
            businessName: 'Shop',
          },
        ],
      });
      const sitelink = restoreExtensionTemplate({
        name: 'S',
        extensionType: 'Sitelink',
        attachTo: pick(next, ['adGroup', 'campaign', 'account']),
        templates: [{ 'Link Text': pick(next, ['{mod}', 'Shop now', '{var1}']), 'Final URL': '' }],
      });
      const callout = restoreExtensionTemplate({
        name: 'K',
        extensionType: 'Callout',
        attachTo: pick(next, ['adGroup', 'campaign']),
        templates: [{ 'Callout text': '{var1}' }, { 'Callout text': 'Free delivery' }],
      });
      const rows = randomRows(next);
      const build = generateBuild(
        {
          rows,
          campaign,
          ...(isPerformance ? { pmax } : { rsa }),
          extensions: [sitelink, callout],
          today: '20261122',
        },
        { keywords: () => {}, negatives: () => {} },
      );
      const where = `seed ${seed}`;
      for (const c of build.campaigns) {
        campaigns++;
        expect(c.campaign, where).not.toMatch(INVISIBLE);
        expect(isNfc(c.campaign), where).toBe(true);
        if (c.locationId === undefined) continue;
        const ids = c.locationId === '' ? [] : c.locationId.split(';');
        for (const id of ids) expect(id, where).toMatch(/^[1-9]\d*$/);
        if (isLocation) expect(ids.length, where).toBeGreaterThan(0);
      }
      for (const g of [...build.adGroups, ...build.assetGroups]) {
        const name = 'adGroup' in g ? g.adGroup : g.assetGroup;
        expect(name, where).not.toMatch(INVISIBLE);
        expect(isNfc(name), where).toBe(true);
      }
      for (const ad of build.rsaAds ?? []) {
        ads++;
        expect(GOOD_URLS, where).toContain(ad.finalUrl);
        for (const h of ad.headlines) expect(hasExclamation(h), `${where} ${h}`).toBe(false);
        for (const t of [...ad.headlines, ...ad.descriptions, ...ad.paths])
          expect(isNfc(t), where).toBe(true);
      }
      for (const ad of build.performanceMaxAds ?? []) {
        ads++;
        expect(GOOD_URLS, where).toContain(ad.finalUrl);
        const texts = [...ad.headlines, ...ad.longHeadlines, ...ad.descriptions, ad.businessName];
        for (const t of texts) {
          expect(isNfc(t), where).toBe(true);
          expect(t, where).not.toMatch(/\{\s*keyword/i);
        }
        for (const h of [...ad.headlines, ...ad.longHeadlines])
          expect(hasExclamation(h), where).toBe(false);
      }
      for (const [type, list] of build.extensions) {
        const places = new Map<string, Set<string>>();
        for (const e of list) {
          assets++;
          const place = `${e.campaign}\u001f${e.adGroup}`;
          const seen = places.get(place) ?? new Set<string>();
          places.set(place, seen);
          for (const value of Object.values(e.values)) expect(isNfc(value), where).toBe(true);
          const text = e.values[type === 'Sitelink' ? 'Link Text' : 'Callout text'] ?? '';
          expect(hasExclamation(text), where).toBe(false);
          const folded = text.normalize('NFKC').toUpperCase().toLowerCase();
          expect(seen.has(folded), `${where}: "${text}" twice in a place`).toBe(false);
          seen.add(folded);
          if (type === 'Sitelink') expect(GOOD_URLS, where).toContain(e.values['Final URL']);
        }
        for (const seen of places.values()) expect(seen.size, where).toBeLessThanOrEqual(20);
      }
    }
    // The feeds made each kind of output, so the checks ran on written cells.
    expect(ads).toBeGreaterThan(200);
    expect(assets).toBeGreaterThan(200);
    expect(campaigns).toBeGreaterThan(300);
  }, 60_000);
});
