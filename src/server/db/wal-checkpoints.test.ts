import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../../../tests/support/wait';
import { checkpointInBackground } from './wal-checkpoints';

const dir = mkdtempSync(join(tmpdir(), 'botty-wal-'));
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

describe('WAL checkpoints in the background', () => {
  it('copy what the server commits into the database file from another thread, its own checkpoints off', async () => {
    const { db, path } = openWal('server.db');
    const checkpoints = checkpointInBackground(db, path, { everyMs: 20 });
    expect(autocheckpoint(db)).toBe(0);
    // 8 MiB in 2,000 pages or so, far past the 1,000 pages at which the committing connection would checkpoint.
    const insert = db.prepare('insert into blobs (data) values (?)');
    for (let i = 0; i < 8 * 16; i++) insert.run(Buffer.alloc(MB / 16, i));
    // Only the background connection copies it into the file: the server's own checkpoints are off.
    await until(() => statSync(path).size >= 8 * MB, { what: 'the data in the database file' });

    db.close();
    await checkpoints.stop();
    // The last connection to close checkpointed what was left and removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new SQLite(path);
    expect(reopened.prepare('select count(*) as n from blobs').get()).toEqual({ n: 128 });
    reopened.close();
  });

  it('give SQLite its own checkpoints back when the background connection is lost', async () => {
    const { db } = openWal('lost.db');
    const lost: string[] = [];
    // A connection that cannot open (its file is gone): the worker fails as it starts.
    const checkpoints = checkpointInBackground(db, join(dir, 'gone.db'), { everyMs: 20, onLost: (r) => lost.push(r) });
    await until(() => lost.length > 0, { what: 'the loss to be told' });
    expect(autocheckpoint(db)).toBe(1000);
    await checkpoints.stop();
    // Told once, with the worker's own error.
    expect(lost).toHaveLength(1);
    expect(lost[0]).not.toMatch(/^the worker exited/);
    db.close();
  });
});
