import {
  ADMIN_MESSAGES,
  USAGE_TOTALS_MAX,
  type Limits,
  type UsageReport,
  type UsageRow,
  type UsageToday,
} from '@shared/contracts/admin';
import type { Role } from '@shared/contracts/auth';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { getAdminSettings } from '../settings/settings.service';
import {
  findLimitColumns,
  findUsageRows,
  sumDayOfUsers,
  sumUsageByDay,
  sumUsageByUserBotModel,
} from './usage.repository';

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

/**
 * A user's limit columns as a read of another row brings them (`owner_role`, …: a bot's owner read with the
 * conversation, an API key's with the key), so the limit check needs no read of its own.
 */
export const ownerLimitColumns = (
  id: number,
  owner: {
    owner_role: string;
    owner_daily_token_limit: UserLimitColumns['daily_token_limit'];
    owner_daily_reply_limit: UserLimitColumns['daily_reply_limit'];
  },
): UserLimitColumns => ({
  id,
  role: owner.owner_role,
  daily_token_limit: owner.owner_daily_token_limit,
  daily_reply_limit: owner.owner_daily_reply_limit,
});

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
 * Usage in a range (default: the last 30 days): the day totals a chart draws and the totals per person, bot and
 * model, both summed by the database; for one person, today's use against their limits too.
 */
export async function usageReport(deps: UsageDeps, query: UsageQuery): Promise<UsageReport> {
  const range = { ...rangeOf(deps.clock.now(), query), userId: query.userId };
  const user = await requireUser(deps, query.userId);
  const db = deps.db.kysely;
  const [days, totals, today] = await Promise.all([
    sumUsageByDay(db, range),
    // One more than shown tells whether there were more.
    sumUsageByUserBotModel(db, range, USAGE_TOTALS_MAX + 1),
    user ? usageTodayFor(deps, [user]).then((today) => today.get(user.id) ?? null) : null,
  ]);
  return {
    from: range.from,
    to: range.to,
    days,
    totals: totals.slice(0, USAGE_TOTALS_MAX),
    truncated: totals.length > USAGE_TOTALS_MAX,
    today,
  };
}

/** The limit columns of the one person a report is about (404 when there is none), or undefined for everyone. */
async function requireUser(deps: UsageDeps, userId: number | undefined) {
  if (userId === undefined) return undefined;
  const user = await findLimitColumns(deps.db.kysely, userId);
  if (!user) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
  return user;
}

/** Every row of a range, per day, person, bot and model, newest first: what the CSV export holds. */
export async function usageRows(
  deps: UsageDeps,
  query: UsageQuery,
): Promise<{ from: string; to: string; rows: UsageRow[] }> {
  const range = { ...rangeOf(deps.clock.now(), query), userId: query.userId };
  await requireUser(deps, query.userId);
  return { from: range.from, to: range.to, rows: await findUsageRows(deps.db.kysely, range) };
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

export function usageCsv(rows: UsageRow[]): string {
  const lines = rows.map((row) =>
    [row.day, row.username, row.botName, row.model, row.replies, row.inputTokens, row.outputTokens]
      .map(csvField)
      .join(','),
  );
  return [CSV_HEADER.join(','), ...lines].join('\r\n') + '\r\n';
}
