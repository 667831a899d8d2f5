#!/usr/bin/env node
// The `adloom` command: runs the TypeScript source through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
