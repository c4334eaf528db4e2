import type { clientRoutePatterns } from '@altwise/contracts/routes';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { loadChunk } from './chunk-loading.ts';
import { HydrateFallback } from './hydrate-fallback.tsx';
import { AppShell } from './layouts/app-shell.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { ProtectedRoute } from './protected-route.tsx';
import { RouteError } from './route-error.tsx';

type ClientRoutePattern = (typeof clientRoutePatterns)[number];

/**
 * public: anyone. guarded: behind ProtectedRoute (redirects to /login without a session).
 *
 * the product spec §2 marks dashboard, free-plan, checkout, caption-generator, generate-content and history as
 * protected and leaves open whether the "signed-in" routes (images, scrape, scraped-images, upload-images,
 * account, help, reel-generator) are guarded. We guard them too: every one of them shows or spends the
 * signed-in person's own data (library, credits, profile) through token-requiring calls, the product spec §6 lists
 * them as authenticated, and they are reachable only from the signed-in bar. Guarding them up front sends a
 * signed-out visitor to /login at once instead of to a page whose calls fail with 'No token found'.
 */
type Access = 'public' | 'guarded';

type RouteDefinition = { access: Access; load: () => Promise<ComponentType> };

/** Every route of the product spec §2; typed against `clientRoutePatterns` so none can be forgotten. */
export const routeTable: Record<ClientRoutePattern, RouteDefinition> = {
  '/': {
    access: 'public',
    load: () => import('../features/landing/landing-page.tsx').then((m) => m.LandingPage),
  },
  '/register': {
    access: 'public',
    load: () => import('../features/auth/register-page.tsx').then((m) => m.RegisterPage),
  },
  '/login': {
    access: 'public',
    load: () => import('../features/auth/login-page.tsx').then((m) => m.LoginPage),
  },
  '/forgot-password': {
    access: 'public',
    load: () => import('../features/auth/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage),
  },
  '/reset-password': {
    access: 'public',
    load: () => import('../features/auth/reset-password-page.tsx').then((m) => m.ResetPasswordPage),
  },
  '/dashboard': {
    access: 'guarded',
    load: () => import('../features/dashboard/dashboard-page.tsx').then((m) => m.DashboardPage),
  },
  '/plans': {
    access: 'public',
    load: () => import('../features/pricing/plans-page.tsx').then((m) => m.PlansPage),
  },
  '/free-plan': {
    access: 'guarded',
    load: () => import('../features/pricing/free-plan-page.tsx').then((m) => m.FreePlanPage),
  },
  '/checkout/:plan': {
    access: 'guarded',
    load: () => import('../features/pricing/checkout-page.tsx').then((m) => m.CheckoutPage),
  },
  '/success': {
    access: 'public',
    load: () => import('../features/pricing/payment-result-page.tsx').then((m) => m.PaymentResultPage),
  },
  '/support': {
    access: 'public',
    load: () => import('../features/support/support-page.tsx').then((m) => m.SupportPage),
  },
  '/developers': {
    access: 'public',
    load: () => import('../features/developers/developers-page.tsx').then((m) => m.DevelopersPage),
  },
  '/accuracy': {
    access: 'public',
    load: () => import('../features/accuracy/accuracy-page.tsx').then((m) => m.AccuracyPage),
  },
  '/blogs': {
    access: 'public',
    load: () => import('../features/blog/blog-index-page.tsx').then((m) => m.BlogIndexPage),
  },
  '/blog': {
    access: 'public',
    load: () => import('../features/blog/blog-index-page.tsx').then((m) => m.BlogIndexPage),
  },
  '/blog/post1': {
    access: 'public',
    load: () => import('../features/blog/blog-post-page.tsx').then((m) => m.BlogPost1Page),
  },
  '/blog/post2': {
    access: 'public',
    load: () => import('../features/blog/blog-post-page.tsx').then((m) => m.BlogPost2Page),
  },
  '/blog/post3': {
    access: 'public',
    load: () => import('../features/blog/blog-post-page.tsx').then((m) => m.BlogPost3Page),
  },
  '/images': {
    access: 'guarded',
    load: () => import('../features/images/images-page.tsx').then((m) => m.ImagesPage),
  },
  '/scrape': {
    access: 'guarded',
    load: () => import('../features/images/scrape-page.tsx').then((m) => m.ScrapePage),
  },
  '/scraped-images': {
    access: 'guarded',
    load: () => import('../features/images/scraped-images-page.tsx').then((m) => m.ScrapedImagesPage),
  },
  '/upload-images': {
    access: 'guarded',
    load: () => import('../features/images/upload-images-page.tsx').then((m) => m.UploadImagesPage),
  },
  '/account': {
    access: 'guarded',
    load: () => import('../features/account/account-page.tsx').then((m) => m.AccountPage),
  },
  '/help': {
    access: 'guarded',
    load: () => import('../features/help/help-page.tsx').then((m) => m.HelpPage),
  },
  '/confirm-email/:token': {
    access: 'public',
    load: () => import('../features/auth/confirm-email-page.tsx').then((m) => m.ConfirmEmailPage),
  },
  '/caption-generator': {
    access: 'guarded',
    load: () => import('../features/image-editor/image-editor-page.tsx').then((m) => m.ImageEditorPage),
  },
  '/reel-generator': {
    access: 'guarded',
    load: () => import('../features/reels/reel-generator-page.tsx').then((m) => m.ReelGeneratorPage),
  },
  '/generate-content': {
    access: 'guarded',
    load: () => import('../features/content/generate-content-page.tsx').then((m) => m.GenerateContentPage),
  },
  '/history': {
    access: 'guarded',
    load: () => import('../features/content/history-page.tsx').then((m) => m.HistoryPage),
  },
  '/audit': {
    access: 'guarded',
    load: () => import('../features/audit/audit-page.tsx').then((m) => m.AuditPage),
  },
  '/audit/:id': {
    access: 'guarded',
    load: () => import('../features/audit/audit-detail-page.tsx').then((m) => m.AuditDetailPage),
  },
  '/audit/:id/report': {
    access: 'guarded',
    load: () => import('../features/audit/audit-report-page.tsx').then((m) => m.AuditReportPage),
  },
  '/monitors': {
    access: 'guarded',
    load: () => import('../features/monitors/monitors-page.tsx').then((m) => m.MonitorsPage),
  },
  '/integrations': {
    access: 'guarded',
    load: () => import('../features/integrations/integrations-page.tsx').then((m) => m.IntegrationsPage),
  },
};

function toRoute(pattern: string, definition: RouteDefinition): RouteObject {
  const lazy = async () => ({ Component: await loadChunk(definition.load) });
  return pattern === '/' ? { index: true, lazy } : { path: pattern, lazy };
}

function routesWith(access: Access): RouteObject[] {
  return Object.entries(routeTable)
    .filter(([, definition]) => definition.access === access)
    .map(([pattern, definition]) => toRoute(pattern, definition));
}

export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    errorElement: <RouteError standalone />,
    HydrateFallback,
    children: [
      {
        // Errors of a page render inside the frame, so the navigation stays usable.
        errorElement: <RouteError />,
        children: [
          ...routesWith('public'),
          { element: <ProtectedRoute />, children: routesWith('guarded') },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
