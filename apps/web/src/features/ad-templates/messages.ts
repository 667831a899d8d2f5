/** Texts of the ad tabs (spec sections 5 and 8). */
export const AD_MESSAGES = {
  needRows: 'Have you remembered to select a feed and rows?',
  needKeywords: 'Generate keywords before generating ads',
  needAssets: 'Generate assets before generating ads',
  rsaForPerformance: 'RSAs cannot be generated for performance campaigns',
  performanceForSearch: 'Performance ads cannot be generated for Search campaigns',
  noCampaignTemplate: 'Choose a campaign template on the Campaigns tab first',
} as const;
