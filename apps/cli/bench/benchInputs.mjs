// The CLI bench's feed and templates, shared by cli.bench.ts and compare-outputs.mjs (plain
// JavaScript, so that node runs the comparison without a TypeScript loader).

export const BRANDS = [
  'nike',
  'adidas',
  'puma',
  'reebok',
  'asics',
  'new balance',
  'saucony',
  'hoka',
];
export const MODS = [
  'running shoes',
  'trainers',
  'sneakers',
  'boots',
  'sandals',
  'trail shoes',
  'slides',
];
export const COLOURS = ['red', 'blue', 'black', 'white', 'grey', 'green', 'navy', 'pink'];

/** The bench feed's header line. */
export const BENCH_FEED_HEADER = 'Root,Modifier,Var 1,Final URL\r\n';

/**
 * Line `i` of the bench feed (0-based), with its line break.
 * @param {number} i
 * @returns {string}
 */
export function benchFeedLine(i) {
  const brand = BRANDS[i % BRANDS.length];
  return `${brand} ${i},${MODS[i % MODS.length]},${COLOURS[(i >> 3) % COLOURS.length]},https://www.shoes.example/${brand.replace(' ', '-')}/${i}\r\n`;
}

const HEADLINES = [
  '{root}',
  '{mod} Sale',
  '{var1} {mod}',
  'Shop {root}',
  '{root} Deals',
  'Free Delivery',
  'Official Store',
  'Order Today',
  '30-Day Returns',
  'Top Brands',
  'New Season Styles',
  'Best Prices Online',
  'Fast Shipping',
  'Gift Cards Available',
  'Shop the Range',
];

/** The bench's RSA template: one 15-headline fallback. */
export const BENCH_RSA = {
  name: 'Bench RSA',
  templates: [
    {
      headlines: HEADLINES.map((text, i) => ({ text, pos: i === 0 ? 1 : 0 })),
      descriptions: [
        { text: 'Shop {root} {mod} in {var1}. Free delivery and returns.', pos: 0 },
        { text: 'Official stockist. Order today, delivered tomorrow.', pos: 0 },
      ],
      paths: ['{var1}', 'deals'],
      labels: [],
    },
  ],
};

const BENCH_KEYWORDS = [
  { keyword: '{root} {mod}', matchType: 'Broad' },
  { keyword: '{root} {mod}', matchType: 'Exact' },
  { keyword: '{root} {mod} {var1}', matchType: 'Phrase' },
  { keyword: '{root} {mod} cheap', matchType: 'Negative Broad' },
];

/**
 * The template shapes the CLI bench runs at every size (issue 39), each a campaign template and
 * an RSA template: `bench`, 4 keyword lines a row, every row its own ad group; `mt`, the ad group
 * `{root} {mod} - {mt}` (three ad groups a row), four keywords whose Exact becomes a Negative
 * Exact of the Broad group (cross negatives), 15 headlines in three fallbacks (the first fails
 * on long roots, the second on long colours); `big-group`, every row into one of 56 ad groups of
 * one campaign; `blocking-dropped`, negatives that block their group's keywords, dropped
 * (`dropBlockingNegatives`).
 */
export const SHAPES = {
  bench: {
    campaign: {
      name: 'Bench',
      type: 'search',
      const: 'Shoes',
      campaign: '{const} {mod}',
      adGroup: '{root} {mod}',
      keywords: BENCH_KEYWORDS,
    },
    rsa: BENCH_RSA,
  },
  mt: {
    campaign: {
      name: 'Mt',
      type: 'search',
      const: 'Shoes',
      campaign: '{const} {mod}',
      adGroup: '{root} {mod} - {mt}',
      keywords: BENCH_KEYWORDS,
    },
    rsa: {
      name: 'Mt RSA',
      templates: [
        ['{root} {mod} {var1}', '{root} {mod}', '{var1} {root}'],
        ['{root} {var1}', '{root} Sale', 'Shop {var1}'],
        ['{root}', 'Shop {mod}', 'Shop Now'],
      ].map((first) => ({
        headlines: [...first, ...HEADLINES.slice(5), 'Great Value', 'Free Returns'].map(
          (text, i) => ({
            text,
            pos: i === 0 ? 1 : 0,
          }),
        ),
        descriptions: [
          { text: 'Shop {root} {mod} in {var1}. Free delivery and returns.', pos: 0 },
          { text: 'Official stockist. Order today, delivered tomorrow.', pos: 0 },
        ],
        paths: ['{var1}', 'deals'],
        labels: [],
      })),
    },
  },
  'big-group': {
    campaign: {
      name: 'Big groups',
      type: 'search',
      const: 'Shoes',
      campaign: '{const}',
      adGroup: '{var1} {mod}',
      keywords: BENCH_KEYWORDS,
    },
    rsa: BENCH_RSA,
  },
  'blocking-dropped': {
    campaign: {
      name: 'Dropped',
      type: 'search',
      const: 'Shoes',
      campaign: '{const} {mod}',
      adGroup: '{root} {mod}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{root} cheap {mod}', matchType: 'Phrase' },
        { keyword: '{root} {var1}', matchType: 'Exact' },
        { keyword: 'cheap', matchType: 'Negative Broad' },
        { keyword: '{root} {var1}', matchType: 'Negative Exact' },
      ],
      settings: { dropBlockingNegatives: true },
    },
    rsa: BENCH_RSA,
  },
};
