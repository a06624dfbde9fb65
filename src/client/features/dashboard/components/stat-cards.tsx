import { Activity, Bot as BotGlyph, Coins, MessagesSquare, type LucideIcon } from 'lucide-react';
import type { Bot } from '@shared/contracts/bots';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatEnglishCount } from '@/lib/format-count';

/** Spec §9: a fixed figure. */
const USAGE_CREDITS = 750;

interface Stat {
  label: string;
  icon: LucideIcon;
  value: (bots: Bot[]) => number;
}

const STATS: Stat[] = [
  { label: 'Total Botties', icon: BotGlyph, value: (bots) => bots.length },
  {
    label: 'Botty Interactions',
    icon: MessagesSquare,
    value: (bots) => bots.reduce((sum, bot) => sum + (bot.usageCount ?? 0), 0),
  },
  { label: 'Active Botties', icon: Activity, value: (bots) => bots.filter((bot) => bot.active).length },
  { label: 'Usage Credits', icon: Coins, value: () => USAGE_CREDITS },
];

/** The four figures of spec §2; `bots` is undefined while the list loads, or when it `failed` to. */
export function StatCards({ bots, failed }: { bots: Bot[] | undefined; failed: boolean }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {STATS.map(({ label, icon: Icon, value }) => (
        <Card key={label} className="flex flex-col gap-2 p-4 sm:p-5">
          <dt className="flex items-start justify-between gap-2 text-sm font-medium text-muted-foreground">
            {label}
            <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          </dt>
          <dd className="text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">
            {bots ? formatEnglishCount(value(bots)) : failed ? '—' : <Skeleton className="h-8 w-14" />}
          </dd>
        </Card>
      ))}
    </dl>
  );
}
