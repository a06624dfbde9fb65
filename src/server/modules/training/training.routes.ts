import { errorResponseSchema } from '@shared/contracts/common';
import { previewAnswersBodySchema, type PreviewEvent } from '@shared/contracts/training';
import { openNdjson } from '../../lib/ndjson-stream';
import { currentUserId } from '../../plugins/auth-guard';
import { limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as training from './training.service';

export interface TrainingRoutesOptions {
  deps: training.TrainingDeps;
  /** The user's model-call budget, shared with the chat ('model-calls'). */
  modelCallRateLimit: RateLimit;
}

export const trainingRoutes = signedInRoutes<TrainingRoutesOptions>(async (app, { deps, modelCallRateLimit }) => {
  const tags = ['training'];

  app.post(
    '/bots/preview-answers',
    {
      preHandler: limitPerUser(app, modelCallRateLimit, 'model-calls'),
      schema: {
        tags,
        description:
          "Answers the test queries of the wizard's draft (a bot being created, or with `botId` one being edited, " +
          'whose knowledge files it then reads as the chat does) with its prompt and settings, streamed as application/x-ndjson: one line per query in order, `answer` ({ index, query, ' +
          'answer, sources }) or `failed` ({ index, query, message }), then `done` ({ answered }). Closing the request ' +
          'cancels the rest. Offline: 503, nothing to answer with.',
        body: previewAnswersBodySchema,
        response: { 404: errorResponseSchema, 503: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await training.preparePreviewAnswers(deps, currentUserId(request), request.body);
      const stream = openNdjson<PreviewEvent>(reply);
      await answer(request.log, stream.gone, stream.send);
      stream.end();
    },
  );
});
