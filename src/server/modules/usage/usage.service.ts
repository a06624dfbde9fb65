import { ADMIN_MESSAGES, type Limits, type UsageReport, type UsageRow, type UsageToday } from '@shared/contracts/admin';
import type { Role } from '@shared/contracts/auth';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { getAdminSettings } from '../settings/settings.service';
import { findLimitColumns, findUsageRows, sumDayOfUsers } from './usage.repository';

export interface UsageDeps {
  db: Db;
  clock: Clock;
}

/** What usageTodayFor needs of a user row; the limit columns as the users table holds them. */
export interface UserLimitColumns {
  id: number;
  role: string;
  daily_token_limit: number | string | null;
  daily_reply_limit: number | null;
}

/** Usage is counted per UTC day. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

export function nextUtcMidnight(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1));
}

const roleOrUser = (role: string): Role => (role === 'admin' || role === 'superadmin' ? role : 'user');

/** The user's own limit where set, else the role's default. */
export function limitsOf(user: UserLimitColumns, defaults: Record<Role, Limits>): Limits {
  const roleDefault = defaults[roleOrUser(user.role)];
  return {
    dailyTokens: user.daily_token_limit === null ? roleDefault.dailyTokens : Number(user.daily_token_limit),
    dailyReplies: user.daily_reply_limit ?? roleDefault.dailyReplies,
  };
}

/** Today's (UTC) use of each user against the limits that apply to them, in one query for all of them. */
export async function usageTodayFor(deps: UsageDeps, users: UserLimitColumns[]): Promise<Map<number, UsageToday>> {
  const now = deps.clock.now();
  const [settings, totals] = await Promise.all([
    getAdminSettings(deps),
    sumDayOfUsers(
      deps.db.kysely,
      utcDay(now),
      users.map((u) => u.id),
    ),
  ]);
  const resetsAt = nextUtcMidnight(now).toISOString();
  return new Map(
    users.map((user) => {
      const used = totals.get(user.id) ?? { tokens: 0, replies: 0 };
      return [user.id, { ...used, limits: limitsOf(user, settings.defaultLimits), resetsAt }];
    }),
  );
}

/** What a report covers when no range is asked for: the last 30 days, today included. */
const DEFAULT_DAYS = 30;
/** A year of rows per person is the most one answer carries. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export interface UsageQuery {
  from?: string;
  to?: string;
  /** Admins: one person's usage; left out, everyone's. */
  userId?: number;
}

function rangeOf(now: Date, query: UsageQuery) {
  const to = query.to ?? utcDay(now);
  const from = query.from ?? utcDay(new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS));
  if (from > to) throw new AppError('VALIDATION', 'From must be on or before To');
  if (Date.parse(to) - Date.parse(from) >= MAX_DAYS * DAY_MS) {
    throw new AppError('VALIDATION', `A report covers at most ${MAX_DAYS} days`);
  }
  return { from, to };
}

/**
 * Usage per day, person, bot and model in a range (default: the last 30 days), with the day totals a chart
 * draws, and, for one person, today's use against their limits. Bot 0 (no bot) reads as a null bot; a deleted
 * bot keeps its id with a null name.
 */
export async function usageReport(deps: UsageDeps, query: UsageQuery): Promise<UsageReport> {
  const range = rangeOf(deps.clock.now(), query);
  const db = deps.db.kysely;
  const user = query.userId === undefined ? undefined : await findLimitColumns(db, query.userId);
  if (query.userId !== undefined && !user) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
  const rows: UsageRow[] = (await findUsageRows(db, { ...range, userId: query.userId })).map((row) => ({
    day: row.day,
    userId: row.user_id,
    username: row.username,
    botId: row.bot_id === 0 ? null : row.bot_id,
    botName: row.bot_name ?? null,
    model: row.model,
    replies: Number(row.replies),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
  }));
  const days = new Map<string, UsageReport['days'][number]>();
  for (const row of rows) {
    const day = days.get(row.day) ?? { day: row.day, replies: 0, inputTokens: 0, outputTokens: 0 };
    day.replies += row.replies;
    day.inputTokens += row.inputTokens;
    day.outputTokens += row.outputTokens;
    days.set(row.day, day);
  }
  const today = user ? ((await usageTodayFor(deps, [user])).get(user.id) ?? null) : null;
  return { ...range, days: [...days.values()].reverse(), rows, today };
}

export const CSV_HEADER = ['day', 'username', 'bot', 'model', 'replies', 'input_tokens', 'output_tokens'];

/**
 * A field as spreadsheets read it: quoted when it holds a separator, a quote or a line break; a leading
 * = + - @ (a formula to a spreadsheet) is neutralised with a quote, since bot names are anyone's text.
 */
function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function usageCsv(report: UsageReport): string {
  const lines = report.rows.map((row) =>
    [row.day, row.username, row.botName, row.model, row.replies, row.inputTokens, row.outputTokens]
      .map(csvField)
      .join(','),
  );
  return [CSV_HEADER.join(','), ...lines].join('\r\n') + '\r\n';
}
