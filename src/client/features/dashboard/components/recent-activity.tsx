import {
  CirclePlus,
  History,
  MessageCircle,
  Pencil,
  Power,
  Share2,
  PowerOff,
  Sparkles,
  Trash2,
  type LucideIcon,
} from 'lucide-react';
import { useEffect } from 'react';
import type { ActivityType } from '@shared/contracts/activities';
import { useActivities } from '@/entities/activity/api/get-activities';
import { RelativeTime } from '@/components/relative-time';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';

/** Spec §9. */
const DASHBOARD_ACTIVITIES_LIMIT = 3;

const ICONS: Record<ActivityType, LucideIcon> = {
  bot_created: CirclePlus,
  bot_updated: Pencil,
  bot_deleted: Trash2,
  bot_activated: Power,
  bot_deactivated: PowerOff,
  custom_prompt_saved: Sparkles,
  chat_started: MessageCircle,
  bot_sharing_changed: Share2,
};

function ActivityList() {
  const { data: activities, isPending, isError } = useActivities(DASHBOARD_ACTIVITIES_LIMIT);

  useEffect(() => {
    if (isError) toast({ variant: 'destructive', title: 'Failed to fetch activities' });
  }, [isError]);

  if (isPending && !isError) {
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">Loading recent activity</span>
        {Array.from({ length: DASHBOARD_ACTIVITIES_LIMIT }, (_, index) => (
          <div key={index} className="flex gap-3">
            <Skeleton className="size-8 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-4/5" />
              <Skeleton className="h-3 w-1/3" />
            </div>
          </div>
        ))}
      </div>
    );
  }

  if (!activities?.length) {
    return (
      <p className="text-sm text-muted-foreground">
        {isError
          ? 'Recent activity could not be loaded. Reload the page to try again.'
          : 'Nothing yet. Create, change or chat with a botty and it shows up here.'}
      </p>
    );
  }

  return (
    <ol className="grid gap-4">
      {activities.map((activity) => {
        // A type added on the server before this client knows it still gets an icon.
        const Icon = ICONS[activity.type] ?? History;
        return (
          <li key={activity.id} className="flex gap-3">
            <span
              className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground"
              aria-hidden="true"
            >
              <Icon className="size-4" />
            </span>
            <div className="min-w-0">
              <p className="text-sm wrap-anywhere">{activity.description}</p>
              <RelativeTime date={activity.createdAt} className="text-xs text-muted-foreground" />
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** The latest few things the user did (spec §2: limit 3). */
export function RecentActivity() {
  return (
    <section aria-labelledby="recent-activity-title">
      <Card>
        <CardHeader>
          <CardTitle id="recent-activity-title">Recent Activity</CardTitle>
        </CardHeader>
        <CardContent>
          <ActivityList />
        </CardContent>
      </Card>
    </section>
  );
}
