/**
 * The entry of the prerendered content pages (the landing page and the blog, ADR 027): a few KB instead of
 * the app. For a signed-out visitor the prerendered HTML is the page: its links are ordinary page loads
 * (each public page is prerendered) and only the header's mobile menu needs a script. A signed-in visitor,
 * whose header differs, or a page the server answered with another route's HTML gets the app (main.tsx).
 */
import { startPublicPage } from './app/public-page.ts';

startPublicPage(() => void import('./main.tsx'));
