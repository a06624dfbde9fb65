import type { Migration } from './migration';

/**
 * How a bot's embedded widget looks on its owner's site (issue 21 item 21, decision 0028): colour, title,
 * corner and offsets, greeting and starter questions, next to the other embed settings. One JSON value (read
 * and validated by the widget module against contracts/widget.ts); `{}` until the owner changes it, which
 * reads as the defaults.
 */
export const widgetAppearance: Migration = {
  async up(db, t) {
    await db.schema
      .alterTable('bots')
      .addColumn('embed_appearance', t.json, (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};
