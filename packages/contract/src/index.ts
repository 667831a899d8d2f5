/** The API contract shared by server and web: zod schemas, route paths, the error vocabulary. */
export * from './errors.ts';
export * from './paths.ts';
export * from './users.ts';
export * from './guides.ts';
export * from './workspace.ts';
export * from './builds.ts';
export * from './google.ts';
export * from './geo.ts';
export * from './xml.ts';
export * from './ai.ts';
export * from './text.ts';
