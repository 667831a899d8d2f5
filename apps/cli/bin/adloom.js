#!/usr/bin/env node
// The `adloom` command: runs the compiled dist/adloom.js with plain Node, compiling it first
// when it is missing or older than its TypeScript source (scripts/build.mjs).
import { build, isBuildStale } from '../scripts/build.mjs';

if (isBuildStale()) await build();
await import('../dist/adloom.js');
