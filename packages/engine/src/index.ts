/** Adloom engine: feed rows + templates -> keywords, ads, asset groups, extensions, validation, export tables. */
export * from './types.ts';
export * from './limits.ts';
export * from './names.ts';
export * from './restore.ts';
