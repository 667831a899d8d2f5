/** Adloom engine: feed rows + templates -> keywords, ads, asset groups, extensions, validation, export tables. */
export * from './types.ts';
export * from './limits.ts';
export * from './names.ts';
export * from './restore.ts';
export * from './text.ts';
export * from './keywords.ts';
export * from './issues.ts';
export * from './campaign.ts';
export * from './ads.ts';
export * from './extensions.ts';
export * from './scores.ts';
export * from './csv.ts';
export * from './data.ts';
export * from './preview.ts';
export * from './export.ts';
export * from './check.ts';
