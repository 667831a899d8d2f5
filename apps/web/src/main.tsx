// The public pages' share of the UI kit's styles, in its cascade layer (so the app's own styles
// win whatever the order of loading); the rest comes with the signed-in app and the tools
// (routes.tsx). A public page that starts using another component adds its file here, in the
// order of Mantine's own styles.css (rules of equal weight: a later file wins, e.g. Anchor over Text).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
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
