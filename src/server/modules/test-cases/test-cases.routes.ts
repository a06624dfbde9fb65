import { z } from 'zod';
import { TEST_CSV_MAX_BYTES } from '@shared/constants';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import {
  testCaseBodySchema,
  testCaseConflictSchema,
  testCaseParamsSchema,
  testCasePatchSchema,
  testCaseSchema,
  testImportResultSchema,
} from '@shared/contracts/test-cases';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import { attachmentHeader } from '../files/multipart-file';
import * as tests from './test-cases.service';

const CSV = 'text/csv';

/** A bot's test set (decision 0041): its cases one by one, as CSV, and from a rated reply. Owner only. */
export const testCasesRoutes = signedInRoutes<{ deps: tests.TestCasesDeps }>(async (app, { deps }) => {
  const tags = ['tests'];
  const readErrors = { 400: errorResponseSchema, 404: errorResponseSchema };
  const writeErrors = { ...readErrors, 409: testCaseConflictSchema };

  // Only this plugin's import route takes CSV text; a larger body is refused before it is read whole.
  app.addContentTypeParser(CSV, { parseAs: 'string', bodyLimit: TEST_CSV_MAX_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.get(
    '/bots/:id/tests',
    {
      schema: {
        tags,
        description: "The bot's test cases, oldest first: the questions an evaluation answers.",
        params: idParamsSchema,
        response: { 200: z.array(testCaseSchema), 404: errorResponseSchema },
      },
    },
    async (request) => tests.listTests(deps, currentUserId(request), request.params.id),
  );

  app.post(
    '/bots/:id/tests',
    {
      schema: {
        tags,
        description:
          'Adds a test case: a question, optionally the expected answer or criteria the judge checks, and tags. ' +
          'A question the bot has as a test already is 409 with that case.',
        params: idParamsSchema,
        body: testCaseBodySchema,
        response: { 201: testCaseSchema, ...writeErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await tests.createTest(deps, currentUserId(request), request.params.id, request.body)),
  );

  app.patch(
    '/bots/:id/tests/:testId',
    {
      schema: {
        tags,
        description: 'Changes the fields sent of a test case.',
        params: testCaseParamsSchema,
        body: testCasePatchSchema,
        response: { 200: testCaseSchema, ...writeErrors },
      },
    },
    async (request) => {
      const { id, testId } = request.params;
      return tests.editTest(deps, currentUserId(request), id, testId, request.body);
    },
  );

  app.delete(
    '/bots/:id/tests/:testId',
    {
      schema: {
        tags,
        description: 'Deletes a test case.',
        params: testCaseParamsSchema,
        response: { 200: messageResponseSchema, ...readErrors },
      },
    },
    async (request) => tests.removeTest(deps, currentUserId(request), request.params.id, request.params.testId),
  );

  app.get(
    '/bots/:id/tests.csv',
    {
      schema: {
        tags,
        description:
          'The test set as CSV to download: a header row, then query, expected, tags (joined by ";") per case.',
        params: idParamsSchema,
        // No response schema: the body is CSV text.
      },
    },
    async (request, reply) => {
      const csv = await tests.exportTestsCsv(deps, currentUserId(request), request.params.id);
      return reply
        .header('content-type', `${CSV}; charset=utf-8`)
        .header('content-disposition', attachmentHeader(`bot-${request.params.id}-tests.csv`))
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );

  app.post(
    '/bots/:id/tests/import',
    {
      schema: {
        tags,
        description:
          'Imports test cases from CSV sent as the request body (Content-Type: text/csv; UTF-8): a header row ' +
          'with "query" and optionally "expected" and "tags" (joined by ";"). New questions are added, existing ' +
          'ones updated; a bad row is 400 naming it, and then nothing changes.',
        params: idParamsSchema,
        consumes: [CSV],
        body: z.string(),
        response: { 200: testImportResultSchema, 413: errorResponseSchema, 415: errorResponseSchema, ...readErrors },
      },
    },
    async (request) => tests.importTestsCsv(deps, currentUserId(request), request.params.id, request.body),
  );

  app.post(
    '/messages/:id/test-case',
    {
      schema: {
        tags,
        description:
          "Turns a reply of one of the caller's bots into a test case: the question it answered, expecting the " +
          "rater's comment when the reply was rated down. A question that is a test already is 409 with that case.",
        params: idParamsSchema,
        response: { 201: testCaseSchema, ...writeErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await tests.testFromReply(deps, currentUserId(request), request.params.id)),
  );
});
