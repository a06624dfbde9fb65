import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../../../tests/support/wait';
import { openDatabase } from './dialect';
import { upkeepInBackground } from './sqlite-upkeep';

const dir = mkdtempSync(join(tmpdir(), 'botty-upkeep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function openWal(name: string) {
  const path = join(dir, name);
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.exec('create table blobs (id integer primary key, data blob)');
  return { db, path };
}

const MB = 1024 * 1024;
const autocheckpoint = (db: SQLite.Database) => db.pragma('wal_autocheckpoint', { simple: true });
/** Slow timers for the job a test does not look at. */
const NEVER = 60_000;

/**
 * Knowledge in miniature: 100 ready files of 500 passages. Reading 50 passages by id with their file's status is
 * what the vector ranking's exact step does (vector-index.repository.ts findVectors).
 */
function fillKnowledge(db: SQLite.Database) {
  db.exec(`create table files (id integer primary key, status text not null);
    create index files_status on files (status, id);
    create table chunks (id integer primary key, file_id integer not null references files (id), ord integer);
    create index chunks_file_ord on chunks (file_id, ord);`);
  const file = db.prepare(`insert into files (status) values ('ready')`);
  const chunk = db.prepare('insert into chunks (file_id, ord) values (?, ?)');
  db.transaction(() => {
    for (let f = 1; f <= 100; f++) {
      file.run();
      for (let ord = 0; ord < 500; ord++) chunk.run(f, ord);
    }
  })();
}
const fiftyIds = Array.from({ length: 50 }, (_, i) => 1 + i * 997);
const READ_BY_ID = `select c.id from chunks c join files f on f.id = c.file_id
  where c.id in (${fiftyIds.join(', ')}) and f.status = 'ready'`;
const planOf = (db: SQLite.Database) =>
  (db.prepare(`explain query plan ${READ_BY_ID}`).all() as { detail: string }[]).map((row) => row.detail);
const analysed = (db: SQLite.Database, table: string) =>
  db.prepare('select count(*) as n from sqlite_stat1 where tbl = ?').pluck().get(table) as number;
const hasStatistics = (db: SQLite.Database) =>
  db.prepare(`select count(*) from sqlite_schema where name = 'sqlite_stat1'`).pluck().get() === 1;

describe('SQLite upkeep in the background', () => {
  it('copies what the server commits into the database file from another thread, its own checkpoints off', async () => {
    const { db, path } = openWal('server.db');
    const upkeep = upkeepInBackground(db, path, { checkpointEveryMs: 20, statisticsEveryMs: NEVER });
    expect(autocheckpoint(db)).toBe(0);
    // 8 MiB in 2,000 pages or so, far past the 1,000 pages at which the committing connection would checkpoint.
    const insert = db.prepare('insert into blobs (data) values (?)');
    for (let i = 0; i < 8 * 16; i++) insert.run(Buffer.alloc(MB / 16, i));
    // Only the background connection copies it into the file: the server's own checkpoints are off.
    await until(() => statSync(path).size >= 8 * MB, { what: 'the data in the database file' });

    db.close();
    await upkeep.stop();
    // The last connection to close checkpointed what was left and removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new SQLite(path);
    expect(reopened.prepare('select count(*) as n from blobs').get()).toEqual({ n: 128 });
    reopened.close();
  });

  it('gives SQLite its own checkpoints back when the background connection is lost', async () => {
    const { db } = openWal('lost.db');
    const lost: string[] = [];
    // A connection that cannot open (its file is gone): the worker fails as it starts.
    const upkeep = upkeepInBackground(db, join(dir, 'gone.db'), {
      checkpointEveryMs: 20,
      onLost: (reason) => lost.push(reason),
    });
    await until(() => lost.length > 0, { what: 'the loss to be told' });
    expect(autocheckpoint(db)).toBe(1000);
    await upkeep.stop();
    // Told once, with the worker's own error.
    expect(lost).toHaveLength(1);
    expect(lost[0]).not.toMatch(/^the worker exited/);
    db.close();
  });

  it('keeps a process that has nothing else to do until its last checkpoint is done', async () => {
    const path = join(dir, 'ending.db');
    // A process of its own: here the test runner keeps the event loop alive whatever the worker does.
    const script = `
      import SQLite from 'better-sqlite3';
      import { upkeepInBackground } from ${JSON.stringify(new URL('./sqlite-upkeep.ts', import.meta.url).href)};
      const db = new SQLite(${JSON.stringify(path)});
      db.pragma('journal_mode = WAL');
      const upkeep = upkeepInBackground(db, ${JSON.stringify(path)}, { checkpointEveryMs: 60000, statisticsEveryMs: 60000 });
      db.exec('create table t (x integer)');
      db.exec('insert into t values (1)');
      db.close();
      await upkeep.stop();
      console.log('stopped');`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '--eval',
      script,
    ]);
    expect(stdout.trim()).toBe('stopped');
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('analyses tables that grew, and the server’s connection then reads passages by their ids', async () => {
    const { db, path } = openWal('statistics.db');
    const upkeep = upkeepInBackground(db, path, { checkpointEveryMs: NEVER, statisticsEveryMs: 20 });
    fillKnowledge(db);
    expect(hasStatistics(db)).toBe(false);
    await until(() => hasStatistics(db) && analysed(db, 'chunks') > 0, { what: 'statistics of the grown table' });
    // The statement the server's own connection prepares now: 50 passages by id, then each one's file.
    expect(planOf(db)[0]).toMatch(/^SEARCH c USING INTEGER PRIMARY KEY/);
    db.close();
    await upkeep.stop();
  });
});

describe('a SQLite database opened by the server', () => {
  it('gets the planner’s statistics as it opens', async () => {
    const path = join(dir, 'opened.db');
    const raw = new SQLite(path);
    raw.pragma('journal_mode = WAL');
    fillKnowledge(raw);
    raw.close();

    const db = openDatabase({ kind: 'sqlite', path });
    const { rows } = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1 order by tbl`.execute(db.kysely);
    expect(rows.map((row) => row.tbl)).toEqual(['chunks', 'files']);
    await db.close();
  });
});
