import { createBrowserRouter } from 'react-router';
import { RootRoute } from '@/app/root-route';
import { PageSpinner } from '@/components/ui/spinner';
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { LoginPage } from '@/features/auth/components/login-page';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { RegisterPage } from '@/features/auth/components/register-page';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { VerifyEmailPage } from '@/features/auth/components/verify-email-page';
import { AppShell } from '@/features/layout/components/app-shell';
import { ErrorPage } from '@/features/layout/components/error-page';
import { NotFoundPage } from '@/features/layout/components/not-found-page';

// Pages a visitor may never open are separate chunks, so the first screen loads less.
export const router = createBrowserRouter([
  {
    element: <AppShell />,
    errorElement: <ErrorPage />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password/:token?', element: <ResetPasswordPage /> },
      { path: '/verify-email/:token?', element: <VerifyEmailPage /> },
      { path: '/', element: <RootRoute /> },
      {
        // A shared conversation: anyone with the link, signed in or not.
        path: '/s/:token',
        hydrateFallbackElement: <PageSpinner />,
        lazy: async () => ({
          Component: (await import('@/features/shared-conversation/components/snapshot-page')).SnapshotPage,
        }),
      },
      {
        element: <ProtectedRoute />,
        // Shown while a lazily loaded page arrives on a first visit straight to it.
        hydrateFallbackElement: <PageSpinner />,
        children: [
          { path: '/home', lazy: async () => ({ Component: (await import('@/app/lazy-home')).LazyHomePage }) },
          {
            path: '/dashboard',
            lazy: async () => ({
              Component: (await import('@/features/dashboard/components/dashboard-page')).DashboardPage,
            }),
          },
          {
            path: '/create-bot',
            lazy: async () => ({
              Component: (await import('@/features/create-bot/components/create-bot-page')).CreateBotPage,
            }),
          },
          {
            path: '/chat/:id?',
            lazy: async () => ({ Component: (await import('@/features/chat/components/chat-page')).ChatPage }),
          },
          {
            path: '/bots/:id/versions',
            lazy: async () => ({
              Component: (await import('@/features/bot-versions/components/versions-page')).VersionsPage,
            }),
          },
          {
            path: '/history',
            lazy: async () => ({
              Component: (await import('@/features/history/components/history-page')).HistoryPage,
            }),
          },
          {
            path: '/settings',
            lazy: async () => ({
              Component: (await import('@/features/settings/components/settings-page')).SettingsPage,
            }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
