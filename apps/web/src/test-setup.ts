import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// jsdom has no CSS Font Loading API; Mantine's autosizing Textarea listens on document.fonts.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
