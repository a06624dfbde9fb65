import { ColumnHeads, CountCell } from '@/components/column-heads';
import { useModels } from '@/entities/model/api/get-models';
import { recordedModelName } from '@/entities/model/model/model-choice';
import { botLabel } from '@/entities/usage/model/bot-label';
import type { UsageGroup } from '../model/usage-totals';

const COLUMNS = [
  { label: 'Person' },
  { label: 'Bot' },
  { label: 'Model' },
  { label: 'Replies', numeric: true },
  { label: 'Input tokens', numeric: true },
  { label: 'Output tokens', numeric: true },
];

const COUNT_CELL = 'px-3 py-2 tabular-nums';

/** Usage per person, bot and model; on a phone the table scrolls inside its own box, never the page. */
export function UsageTable({ groups }: { groups: UsageGroup[] }) {
  // Usage records model ids; people know models by their labels, as in Settings → Usage.
  const { data: models } = useModels();
  if (groups.length === 0) return <p className="text-sm text-muted-foreground">No replies in this range.</p>;
  return (
    <div
      className="overflow-x-auto rounded-lg border"
      tabIndex={0}
      role="region"
      aria-label="Usage by person, bot and model"
    >
      <table className="w-full text-sm">
        <ColumnHeads
          columns={COLUMNS}
          className="bg-muted/50 text-left"
          cellClassName="px-3 py-2 font-medium whitespace-nowrap"
        />
        <tbody className="divide-y">
          {groups.map((g) => (
            <tr key={g.key}>
              <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
                {g.username}
              </th>
              <td className="px-3 py-2 whitespace-nowrap">
                {g.botName ?? <span className="text-muted-foreground">{botLabel(g)}</span>}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">{recordedModelName(models, g.model)}</td>
              <CountCell value={g.replies} className={COUNT_CELL} />
              <CountCell value={g.inputTokens} className={COUNT_CELL} />
              <CountCell value={g.outputTokens} className={COUNT_CELL} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
