import { preferencesSchema } from '@shared/contracts/preferences';
import { errorResponseSchema } from '@shared/contracts/common';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as preferences from './preferences.service';

/** Pinned bots and the dark-mode choice, saved with the account so they follow the user to other devices. */
export const preferencesRoutes = signedInRoutes<{ deps: preferences.PreferencesDeps }>(async (app, { deps }) => {
  const tags = ['auth'];
  app.get('/auth/preferences', { schema: { tags, response: { 200: preferencesSchema } } }, async (request) =>
    preferences.getPreferences(deps, currentUserId(request)),
  );
  app.put(
    '/auth/preferences',
    {
      schema: {
        tags,
        description: 'Replaces the preferences whole. An empty `pinnedBots` stays empty.',
        body: preferencesSchema,
        response: { 200: preferencesSchema, 400: errorResponseSchema },
      },
    },
    async (request) => preferences.putPreferences(deps, currentUserId(request), request.body),
  );
});
