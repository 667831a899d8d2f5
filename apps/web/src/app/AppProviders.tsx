import { StrictMode, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { cssVariablesResolver, theme } from './theme.ts';

/** What wraps the router, in the browser and in the build's prerendering (src/prerender.tsx) alike. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        {children}
      </MantineProvider>
    </StrictMode>
  );
}
