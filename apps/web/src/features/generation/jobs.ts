// What a feature's worker jobs use (the template tabs take generation's internals from here, or
// from index.ts on the page): job handler types and errors, packed tables, the ad groups of a
// campaign template, transferable buffers.
export * from './jobTypes.ts';
export * from './packTable.ts';
export * from './campaignGroups.ts';
export * from './transferables.ts';
export * from './mergeParts.ts';
