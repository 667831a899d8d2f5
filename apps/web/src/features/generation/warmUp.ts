import {
  forEachResponsiveSearchAd,
  newCampaignTemplate,
  restoreRsaTemplate,
  type CampaignTemplate,
  type FeedRow,
} from '@adloom/engine';
import { RsaOutputPacker } from '../ad-templates/outputTables.ts';
import { generateCampaignJob } from '../campaign-template/campaignJobs.ts';
import { localJobContext } from './localJobContext.ts';

/** Rows of the warm-up: enough calls for V8 to compile the hot loops, little enough to be quick. */
const WARM_UP_ROWS = 2000;

/**
 * Runs keyword and RSA generation once over a small made-up feed when the worker starts, and
 * drops the result. V8 compiles a function for speed only after it has run a while, so without
 * this the person's first 100k-row generation also pays for that (about a third longer here).
 * Nothing is kept: the context is a local one, the groups and outputs are dropped.
 */
export function warmUpEngine(): void {
  const rows: FeedRow[] = Array.from({ length: WARM_UP_ROWS }, (_, i) => ({
    id: `w${i}`,
    root: `brand ${i % 23}`,
    mod: `model ${i}`,
    var1: `colour ${i % 7}`,
    var2: '',
    var3: '',
    url: `https://warm.example/${i}`,
  }));
  const campaign: CampaignTemplate = {
    ...newCampaignTemplate('warm-up'),
    campaign: '{root}',
    adGroup: '{root} {mod} {mt}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad', selected: true },
      { keyword: '{root} {mod}', matchType: 'Exact', selected: true },
      { keyword: '{mod} {var1}', matchType: 'Phrase', selected: true },
      { keyword: 'cheap {mod}', matchType: 'Negative Broad', selected: true },
    ],
  };
  const ctx = localJobContext(rows);
  void generateCampaignJob({ template: campaign }, ctx);
  const rsa = restoreRsaTemplate({
    name: 'warm-up',
    templates: [
      {
        headlines: ['{root} {mod}', '{mod} deals', 'Shop {root}', 'Free delivery'],
        descriptions: ['Shop {root} {mod} today.', 'Free delivery on every order.'],
        paths: ['{mod}', 'sale'],
        labels: ['warm'],
      },
    ],
  });
  const packer = new RsaOutputPacker(4, 2);
  forEachResponsiveSearchAd(
    { template: rsa, rows, adGroups: ctx.campaignGroups(campaign).adGroups, today: '20260101' },
    (ad) => packer.add(ad),
  );
  packer.finish();
}
