/** Adloom engine: feed rows + templates -> keywords, ads, asset groups, extensions, validation, export tables. */
export * from './types.ts';
