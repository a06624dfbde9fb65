import { adminSettingsSchema, patchAdminSettingsBodySchema } from '@shared/contracts/admin';
import { errorResponseSchema } from '@shared/contracts/common';
import type { ModelCatalog } from '../../ai/model-catalog';
import { adminRoutes } from '../../plugins/admin-only';
import * as settings from './settings.service';

/** The instance's registration mode, default model per task and default daily limits per role. */
type SettingsRoutesDeps = settings.SettingsDeps & { models: ModelCatalog };

export const settingsRoutes = adminRoutes<{ deps: SettingsRoutesDeps }>(async (app, { deps }) => {
  const tags = ['admin'];
  app.get(
    '/admin/settings',
    {
      schema: {
        tags,
        summary: 'Registration mode, default models and default limits',
        response: { 200: adminSettingsSchema },
      },
    },
    async () => settings.getAdminSettings(deps),
  );
  app.patch(
    '/admin/settings',
    {
      schema: {
        tags,
        summary: 'Change some settings; fields left out keep their value',
        body: patchAdminSettingsBodySchema,
        response: { 200: adminSettingsSchema, 400: errorResponseSchema },
      },
    },
    async (request) => settings.updateAdminSettings(deps, request.body),
  );
});
