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
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routes } from './app/routes.tsx';
import { setNavigator } from './state/navigation.ts';
import { startSession } from './app/startSession.ts';
import { AppProviders } from './app/AppProviders.tsx';
import { STORED_SESSION_ATTRIBUTE } from './app/storedSession.ts';
import { fetchMe } from './api/users.ts';

const router = createBrowserRouter(routes);
setNavigator((to, options) => void router.navigate(to, options));
startSession(undefined, undefined, fetchMe);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const app = (
  <AppProviders>
    <RouterProvider router={router} />
  </AppProviders>
);
// A page prerendered by the build (src/prerender.tsx) is what a signed-out visitor sees: hydrate
// it, in a transition so that the work is cut in slices between which the browser stays
// responsive. Someone with a stored session (or already sent elsewhere) gets the page drawn afresh.
const html = document.documentElement;
if (
  container.dataset.prerendered === router.state.location.pathname &&
  !html.hasAttribute(STORED_SESSION_ATTRIBUTE)
) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  container.replaceChildren();
  html.removeAttribute(STORED_SESSION_ATTRIBUTE);
  createRoot(container).render(app);
}
