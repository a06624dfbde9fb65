import type { UsageGroup } from '../model/usage-totals';
import { formatCount } from '../model/format';

/** Usage per person, bot and model; on a phone the table scrolls inside its own box, never the page. */
export function UsageTable({ groups }: { groups: UsageGroup[] }) {
  if (groups.length === 0) return <p className="text-sm text-muted-foreground">No replies in this range.</p>;
  return (
    <div
      className="overflow-x-auto rounded-lg border"
      tabIndex={0}
      role="region"
      aria-label="Usage by person, bot and model"
    >
      <table className="w-full text-sm">
        <thead className="bg-muted/50 text-left">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Person
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Bot
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Model
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Replies
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Input tokens
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Output tokens
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {groups.map((g) => (
            <tr key={g.key}>
              <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
                {g.username}
              </th>
              <td className="px-3 py-2 whitespace-nowrap">
                {g.botName ?? <span className="text-muted-foreground">None</span>}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">{g.model}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(g.replies)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(g.inputTokens)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(g.outputTokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
