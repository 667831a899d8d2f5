import '@mantine/core/styles.css';
import './styles/global.css';
import './styles/utilities.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { MantineProvider } from '@mantine/core';
import { routes } from './app/routes.tsx';
import { setNavigator } from './state/navigation.ts';
import { startSession } from './app/startSession.ts';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { fetchMe } from './api/users.ts';

const router = createBrowserRouter(routes);
setNavigator((to, options) => void router.navigate(to, options));
startSession(undefined, undefined, fetchMe);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <RouterProvider router={router} />
    </MantineProvider>
  </StrictMode>,
);
