/**
 * The entry of the prerendered /login and /register (ADR 038): React and the page's form, without React
 * Router, TanStack Query's observers or zod (the form's rules and the API client arrive right after). A
 * signed-in visitor, a page the server answered with another route's HTML, or a navigation away from the
 * form gets the app (app/start-app.tsx).
 */
import { startPublicPage } from './app/public-page.ts';
import { startSignInPage } from './app/sign-in-page.tsx';

const loadApp = () => import('./app/start-app.tsx');

startPublicPage(
  () => loadApp().then((app) => app.startApp()),
  (handOver) => startSignInPage(window.location.pathname.replace(/(.)\/+$/, '$1'), handOver, loadApp),
);
