import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { Providers } from '@/app/providers';

/** A screen inside the app's providers and a router at `path`, with a user to drive it. */
export function renderScreen(screen: ReactElement, path = '/') {
  const user = userEvent.setup({ delay: null });
  const view = render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>{screen}</MemoryRouter>
    </Providers>,
  );
  return { user, ...view };
}
