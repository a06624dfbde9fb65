import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { LazyHomePage } from '@/app/lazy-home';
import { RootRoute } from '@/app/root-route';
import { PageSpinner } from '@/components/ui/spinner';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { AppShell } from '@/features/layout/components/app-shell';
import { ErrorPage } from '@/features/layout/components/error-page';

/**
 * Every page but the landing page is its own chunk, so `/` and `/login` load only what they show (bundle
 * budget: scripts/check-bundle.ts). The spinner shows while a page's chunk arrives on a first visit straight to it.
 */
function lazyPage(load: () => Promise<ComponentType>) {
  return { hydrateFallbackElement: <PageSpinner />, lazy: async () => ({ Component: await load() }) };
}

export const router = createBrowserRouter([
  {
    element: <AppShell />,
    // Static: it must show even when loading a page's chunk is what failed.
    errorElement: <ErrorPage />,
    children: [
      { path: '/login', ...lazyPage(async () => (await import('@/features/auth/components/login-page')).LoginPage) },
      {
        path: '/register',
        ...lazyPage(async () => (await import('@/features/auth/components/register-page')).RegisterPage),
      },
      {
        path: '/forgot-password',
        ...lazyPage(async () => (await import('@/features/auth/components/forgot-password-page')).ForgotPasswordPage),
      },
      {
        path: '/reset-password/:token?',
        ...lazyPage(async () => (await import('@/features/auth/components/reset-password-page')).ResetPasswordPage),
      },
      {
        path: '/verify-email/:token?',
        ...lazyPage(async () => (await import('@/features/auth/components/verify-email-page')).VerifyEmailPage),
      },
      { path: '/', element: <RootRoute /> },
      {
        // A shared conversation: anyone with the link, signed in or not.
        path: '/s/:token',
        ...lazyPage(async () => (await import('@/features/shared-conversation/components/snapshot-page')).SnapshotPage),
      },
      {
        element: <ProtectedRoute />,
        hydrateFallbackElement: <PageSpinner />,
        children: [
          // The home page's own chunk is loaded by LazyHomePage, which `/` also renders.
          { path: '/home', element: <LazyHomePage /> },
          {
            path: '/dashboard',
            ...lazyPage(async () => (await import('@/features/dashboard/components/dashboard-page')).DashboardPage),
          },
          {
            path: '/create-bot',
            ...lazyPage(async () => (await import('@/features/create-bot/components/create-bot-page')).CreateBotPage),
          },
          {
            path: '/chat/:id?',
            // Its data is asked for while the page's code loads, not once the page has rendered.
            loader: (args) => {
              void import('@/features/chat/chat-page-loader').then(({ prefetchChatPage }) => prefetchChatPage(args));
              return null;
            },
            ...lazyPage(async () => (await import('@/features/chat/components/chat-page')).ChatPage),
          },
          {
            // The bot hub (decision 0045): each tab a route, older pages (versions, tests) among them.
            path: '/bots/:id',
            ...lazyPage(async () => (await import('@/app/bot-hub/bot-hub-page')).BotHubPage),
            children: [{ path: ':tab?', ...lazyPage(async () => (await import('@/app/bot-hub/tab-pages')).HubTab) }],
          },
          {
            path: '/explore',
            ...lazyPage(async () => (await import('@/features/explore/components/explore-page')).ExplorePage),
          },
          {
            // A bot shared by link (decision 0017): signed-in visitors only.
            path: '/b/:slug',
            ...lazyPage(async () => (await import('@/features/explore/components/shared-bot-page')).SharedBotPage),
          },
          {
            path: '/history',
            ...lazyPage(async () => (await import('@/features/history/components/history-page')).HistoryPage),
          },
          {
            path: '/settings',
            ...lazyPage(async () => (await import('@/features/settings/components/settings-page')).SettingsPage),
          },
          {
            // The admin console's sections are its own sub-paths (/admin/people…); admins only (the page says so).
            path: '/admin/*',
            ...lazyPage(async () => (await import('@/features/admin/components/admin-page')).AdminPage),
          },
        ],
      },
      {
        path: '*',
        ...lazyPage(async () => (await import('@/features/layout/components/not-found-page')).NotFoundPage),
      },
    ],
  },
]);
