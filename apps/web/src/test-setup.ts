import { afterAll, afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { resetPageState } from './state/pageState.ts';

// jsdom has no CSS Font Loading API; Mantine's autosizing Textarea listens on document.fonts.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });

// The suite's files share one module graph and one document per worker (isolate: false in
// vite.config.ts, so React, Mantine and the DOM are set up once): whatever a test changes of
// that shared world is put back after it, and every module's page-long state after each file.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

afterAll(() => {
  resetPageState();
  localStorage.clear();
  sessionStorage.clear();
});
