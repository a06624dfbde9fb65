// First: it sends the page's first requests as it is evaluated (app/early-requests.ts).
import '@/app/early-requests';
import '@fontsource-variable/inter';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { checkStoredSession } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { initTheme } from '@/lib/theme';

initTheme();
checkStoredSession(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
