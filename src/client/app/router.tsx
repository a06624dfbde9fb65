import { createBrowserRouter } from 'react-router';
import { RootRoute } from '@/app/root-route';
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { LoginPage } from '@/features/auth/components/login-page';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { RegisterPage } from '@/features/auth/components/register-page';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { VerifyEmailPage } from '@/features/auth/components/verify-email-page';
import { ChatPage } from '@/features/chat/components/chat-page';
import { CreateBotPage } from '@/features/create-bot/components/create-bot-page';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { HomePage } from '@/features/home/components/home-page';
import { AppShell } from '@/features/layout/components/app-shell';
import { ErrorPage } from '@/features/layout/components/error-page';
import { NotFoundPage } from '@/features/layout/components/not-found-page';
import { SettingsPage } from '@/features/settings/components/settings-page';

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
        element: <ProtectedRoute />,
        children: [
          { path: '/home', element: <HomePage /> },
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/create-bot', element: <CreateBotPage /> },
          { path: '/chat/:id?', element: <ChatPage /> },
          { path: '/settings', element: <SettingsPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
