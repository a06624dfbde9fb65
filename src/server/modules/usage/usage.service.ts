import type { Limits, UsageToday } from '@shared/contracts/admin';
import type { Role } from '@shared/contracts/auth';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { getAdminSettings } from '../settings/settings.service';
import { sumDayOfUsers } from './usage.repository';

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
