import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's layering rules (decision 0021) as eslint.config.js states them, run on snippets placed in the
 * modules' files: a route imports no other module's service or repository, any other module file no other
 * module's repository, a repository no service; type imports stay allowed, tests are exempt, and only
 * repositories (and src/server/db/) choose by database engine.
 */
describe('server layering lint', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  });

  /** The layering problems ESLint finds in `code` as if it were `filePath`: rule and message, in order. */
  async function problems(filePath: string, code: string) {
    const [result] = await eslint.lintText(`${code}\n`, { filePath });
    return result!.messages
      .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
      .map((m) => `${m.ruleId}: ${m.message}`);
  }

  const valueImport = "import { findOwnedBot } from '../bots/bots.repository';\nexport const use = findOwnedBot;";
  const typeImport = "import type { BotRow } from '../bots/bots.repository';\nexport type Use = BotRow;";
  const inlineTypeImport = "import { type BotRow } from '../bots/bots.repository';\nexport type Use = BotRow;";

  it("fails a route that imports another module's repository or service, not its own module's", async () => {
    const route = 'src/server/modules/keys/keys.routes.ts';
    expect(await problems(route, valueImport)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*A route calls only its own module's services/),
    ]);
    expect(
      await problems(
        route,
        "import { requireOwnedBot } from '../bots/bots.service';\nexport const use = requireOwnedBot;",
      ),
    ).toHaveLength(1);
    expect(await problems(route, typeImport)).toEqual([]);
    expect(await problems(route, inlineTypeImport)).toEqual([]);
    expect(
      await problems(
        route,
        "import { listKeys } from './keys.service';\nimport { findKeys } from './keys.repository';\nexport const use = [listKeys, findKeys];",
      ),
    ).toEqual([]);
  });

  it("fails a service, or any other module file, that imports another module's repository", async () => {
    for (const file of ['src/server/modules/keys/keys.service.ts', 'src/server/modules/files/knowledge-context.ts']) {
      expect(await problems(file, valueImport)).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*Cross-module needs go through the other module's service/),
      ]);
      expect(await problems(file, typeImport)).toEqual([]);
    }
    const service = 'src/server/modules/keys/keys.service.ts';
    expect(
      await problems(
        service,
        "import { requireOwnedBot } from '../bots/bots.service';\nexport const use = requireOwnedBot;",
      ),
    ).toEqual([]);
    expect(
      await problems(service, "import { findKeys } from './keys.repository';\nexport const use = findKeys;"),
    ).toEqual([]);
  });

  it('fails a repository that imports any service, its own module’s included', async () => {
    const repository = 'src/server/modules/keys/keys.repository.ts';
    for (const from of ['../bots/bots.service', './keys.service']) {
      expect(await problems(repository, `import { something } from '${from}';\nexport const use = something;`)).toEqual(
        [expect.stringMatching(/^no-restricted-imports: .*A repository never calls a service/)],
      );
      expect(
        await problems(repository, `import type { Something } from '${from}';\nexport type Use = Something;`),
      ).toEqual([]);
    }
    expect(await problems(repository, valueImport)).toEqual([]);
  });

  it('leaves tests free to set up any module directly', async () => {
    expect(await problems('src/server/modules/keys/keys.routes.test.ts', valueImport)).toEqual([]);
  });

  it('keeps the client out of the server still', async () => {
    expect(
      await problems(
        'src/server/modules/keys/keys.routes.ts',
        "import { cn } from '@/lib/utils';\nexport const use = cn;",
      ),
    ).toEqual([expect.stringMatching(/Client code stays in src\/client/)]);
  });

  it('lets only repositories choose by database engine', async () => {
    const code =
      "import type { Db } from '../../db/database';\nexport const sqlOf = (db: Db) => (db.kind === 'postgres' ? 1 : 2);";
    expect(await problems('src/server/modules/keys/keys.service.ts', code)).toEqual([
      expect.stringMatching(/^no-restricted-syntax: Only src\/server\/db\/ and repositories choose by database engine/),
    ]);
    expect(await problems('src/server/modules/keys/keys.repository.ts', code)).toEqual([]);
  });
});
