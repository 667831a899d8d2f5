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
