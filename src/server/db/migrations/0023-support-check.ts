import type { Migration } from './migration';

/**
 * A reply checked against its sources (issue 25, decision 0044): its sentences, the sources backing each and the
 * method, as JSON on the reply itself, written once a few seconds after the reply ended. Null until then, and for
 * replies without sources or from before the check; read with the message, so a conversation costs no extra query.
 */
export const supportCheck: Migration = {
  async up(db, t) {
    await db.schema.alterTable('messages').addColumn('support', t.json).execute();
  },
};
