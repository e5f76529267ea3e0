/**
 * Entry: Hindi's font and the stylesheets (tokens, then base rules, then components), the colour theme and the
 * language, then providers (react-query, session, toasts) around the router, and the one
 * rate-limit notice.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { RateLimitNotice } from './components/ui/RateLimitNotice.tsx';
import { Toaster } from './components/ui/Toaster.tsx';
import { SessionProvider } from './app/session.tsx';
import { LiveUpdates } from './app/LiveUpdates.tsx';
import { createRouter } from './app/router.tsx';
import { startI18n } from './i18n/i18n.ts';
import { createQueryClient } from './lib/query-client.ts';
import { startTheme } from './lib/theme.ts';
// Hindi's own font, shipped with the app (Devanagari is no system font everywhere: it showed
// as boxes); the font stack (tokens.css) reaches it only for text the fonts before it lack.
import '@fontsource/noto-sans-devanagari/devanagari-400.css';
import '@fontsource/noto-sans-devanagari/devanagari-600.css';
import '@fontsource/noto-sans-devanagari/devanagari-700.css';
import './styles/tokens.css';
import './styles/global.css';
import './styles.css';

// The theme is on <html> before the first render, so no page shows in the wrong colours first.
startTheme();
// The stored language too: the first render waits for its texts (Hindi is a chunk of its own),
// so it is already in that language, with <html lang> to match.
const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
void startI18n().then(() => render(root));

function render(container: HTMLElement): void {
  const queryClient = createQueryClient();
  const router = createRouter();
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Toaster>
          <SessionProvider>
            <LiveUpdates />
            <RouterProvider router={router} />
          </SessionProvider>
          <RateLimitNotice />
        </Toaster>
      </QueryClientProvider>
    </StrictMode>,
  );
}
